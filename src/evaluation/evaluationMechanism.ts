/**
 * The mechanism and ledger of a private evaluation (`adaprivate evaluate --private`): `releases`
 * Gaussian releases on the same logged rewards (sequential composition), calibrated together for
 * the evaluation's own budget (epsilon, delta) by the policies' calibrator (src/mechanisms), noise
 * secure unless a `noiseSeed` is given (research mode: whoever knows it can remove the noise).
 */
import { calibrateGaussian, GaussianMechanism, type LedgerLike, makeLedger } from '../mechanisms/index.js';
import { createRng, type Rng, SecureRng } from '../random/index.js';

export interface EvaluationMechanism {
  readonly mechanism: GaussianMechanism;
  readonly ledger: LedgerLike;
}

/**
 * @example
 * const { mechanism, ledger } = evaluationMechanism({ epsilon: 1, delta: 1e-5 }, 3);
 * // three releases later: ledger.spent().epsilon ~ 1
 */
export function evaluationMechanism(
  budget: { readonly epsilon: number; readonly delta: number },
  releases: number,
  noiseSeed?: number,
): EvaluationMechanism {
  const ledger = makeLedger(budget.delta, 'sequential');
  const secure = noiseSeed === undefined ? new SecureRng() : null;
  const rng: Rng = secure ?? createRng(noiseSeed!, 'evaluation-noise');
  ledger.setNoise(secure === null ? 'seeded' : 'secure');
  const calibration = calibrateGaussian(
    'private evaluation',
    budget,
    { compositions: releases, q: 1 },
    'zcdp',
  );
  const mechanism = new GaussianMechanism(
    'private evaluation',
    { noiseRng: () => rng, secureWords: () => secure, ledger: () => ledger },
    calibration,
    3,
  );
  return { mechanism, ledger };
}
