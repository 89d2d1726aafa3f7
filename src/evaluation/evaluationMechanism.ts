/**
 * The mechanism and ledger of a private evaluation (`adaprivate evaluate --private`): `releases`
 * Gaussian releases on the same logged rewards (sequential composition), calibrated together for
 * the evaluation's own budget (epsilon, delta) by the policies' calibrator (src/mechanisms), through
 * the exact accountant by default ('zcdp' on request), noise secure unless a `noiseSeed` is given
 * (research mode: whoever knows it can remove the noise).
 */
import {
  calibrateGaussian,
  exactReport,
  GaussianMechanism,
  type LedgerLike,
  makeLedger,
} from '../mechanisms/index.js';
import { createRng, type Rng, SecureRng } from '../random/index.js';

export interface EvaluationMechanism {
  readonly mechanism: GaussianMechanism;
  readonly ledger: LedgerLike;
}

/** Options of {@link evaluationMechanism}. */
export interface EvaluationMechanismOptions {
  /** Seeded noise (research only); default: secure noise. */
  readonly noiseSeed?: number;
  /** The accountant that calibrates the noise and accounts the ledger: 'exact' (default) or 'zcdp'. */
  readonly accountant?: 'exact' | 'zcdp';
  /** The most coordinates one release has (default 6: the user-level statistic). */
  readonly coordinates?: number;
}

/**
 * @example
 * const { mechanism, ledger } = evaluationMechanism({ epsilon: 1, delta: 1e-5 }, 3);
 * // three releases later: ledger.spent().epsilon ~ 1 (exact accountant)
 */
export function evaluationMechanism(
  budget: { readonly epsilon: number; readonly delta: number },
  releases: number,
  options: EvaluationMechanismOptions = {},
): EvaluationMechanism {
  const accountant = options.accountant ?? 'exact';
  if (accountant !== 'exact' && accountant !== 'zcdp') {
    throw new RangeError(
      `private evaluation: accountant must be 'exact' or 'zcdp'. Got ${JSON.stringify(accountant)}.`,
    );
  }
  const calibration = calibrateGaussian(
    'private evaluation',
    budget,
    { compositions: releases, q: 1 },
    accountant,
  );
  const ledger = makeLedger(
    budget.delta,
    'sequential',
    'classic',
    'extended',
    null,
    exactReport(calibration),
  );
  const secure = options.noiseSeed === undefined ? new SecureRng() : null;
  const rng: Rng = secure ?? createRng(options.noiseSeed!, 'evaluation-noise');
  ledger.setNoise(secure === null ? 'seeded' : 'secure');
  const mechanism = new GaussianMechanism(
    'private evaluation',
    { noiseRng: () => rng, secureWords: () => secure, ledger: () => ledger },
    calibration,
    Math.max(6, options.coordinates ?? 6),
  );
  return { mechanism, ledger };
}
