/**
 * The policies' bridge to src/privacy: the ledger as the policies use it (record with a reused info
 * object, so per-round releases allocate nothing), the budget in rho, and the calibration of the
 * amplified noise.
 */
import {
  epsilonToRho,
  gaussianEvent,
  type PrivacyEvent,
  PrivacyLedger,
  type PrivacySpent,
  rdpToEpsilon,
  resolveOrders,
  subsampledGaussianEvent,
  subsampledGaussianRdpCurve,
  UnreachablePrivacyTargetError,
  zcdpToEpsilon,
} from '../privacy/index.js';
import type { PolicyConfig } from './PolicyOptions.js';

export type { PrivacyEvent };
export { gaussianEvent, subsampledGaussianEvent };

/** The guarantee reported by non-private policies: (infinity, 0)-DP, i.e. none. */
export const NON_PRIVATE_SPENT: PrivacySpent = Object.freeze({
  rho: null,
  epsilon: Number.POSITIVE_INFINITY,
  delta: 0,
  releases: 0,
  composition: 'none',
  conversion: 'none (non-private)',
  order: null,
  orderAtEdge: false,
  partitions: 0,
});

/** What a policy needs from its ledger. */
export interface LedgerLike {
  record(event: PrivacyEvent, round: number, partition: number, label: string): void;
  spent(): PrivacySpent;
  toJSON(): unknown;
  /** A ledger restored from `toJSON` output (the policy replaces its own with it). */
  restoreFrom(json: unknown): LedgerLike;
}

class PolicyLedger implements LedgerLike {
  private readonly ledger: PrivacyLedger;
  private readonly info = { round: 0, partition: 0, label: '' };

  constructor(ledger: PrivacyLedger) {
    this.ledger = ledger;
  }

  record(event: PrivacyEvent, round: number, partition: number, label: string): void {
    const info = this.info;
    info.round = round;
    info.partition = partition;
    info.label = label;
    this.ledger.record(event, info);
  }

  spent(): PrivacySpent {
    return this.ledger.spent();
  }

  toJSON(): unknown {
    return this.ledger.toJSON();
  }

  restoreFrom(json: unknown): LedgerLike {
    return new PolicyLedger(PrivacyLedger.fromJSON(json));
  }
}

/**
 * A ledger for a policy: `composition` 'parallel' (each reward in one batch/episode) or 'sequential'.
 *
 * @example
 * makeLedger(1e-5, 'parallel').spent().releases; // returns 0
 */
export function makeLedger(
  delta: number,
  composition: 'parallel' | 'sequential',
  conversion: 'classic' | 'improved' = 'classic',
  orders: 'paper' | 'extended' = 'extended',
): LedgerLike {
  return new PolicyLedger(new PrivacyLedger({ delta, composition, conversion, orders }));
}

/**
 * The zCDP budget of a private policy's config: `rho` when given, else from (epsilon, delta) by the
 * classic conversion (SPEC section 2).
 *
 * @example
 * budgetRho({ epsilon: 5, delta: 1e-5 }); // returns ~0.4496
 */
export function budgetRho(config: PolicyConfig): number {
  if (typeof config.rho === 'number') return config.rho;
  return epsilonToRho(config.epsilon as number, config.delta as number, 'classic');
}

/** The (epsilon, delta) target of a private policy's config (epsilon from rho when rho was given). */
export function budgetEpsilon(config: PolicyConfig): number {
  if (typeof config.epsilon === 'number') return config.epsilon;
  return zcdpToEpsilon(config.rho as number, config.delta as number, 'classic');
}

/**
 * LOCAL ADAPTER (src/privacy exports no calibrator yet): the smallest noise multiplier sigma such that
 * one Poisson-subsampled Gaussian release (rate q, sensitivity 1) is (epsilon, delta)-DP by the RDP
 * accountant on the order grid, by bisection in log sigma to relative precision 1e-9 (epsilon is
 * decreasing in sigma). Throws UnreachablePrivacyTargetError when even sigma -> infinity misses
 * the target (the conversion term ln(1/delta)/(alpha_max - 1) alone exceeds epsilon).
 *
 * @example
 * calibrateSubsampledSigma(1, 1e-5, 0.3, 'paper', 'classic'); // returns sigma_amp for q = 0.3
 */
export function calibrateSubsampledSigma(
  epsilon: number,
  delta: number,
  q: number,
  orders: 'paper' | 'extended',
  conversion: 'classic' | 'improved',
): { sigma: number; order: number } {
  const grid = resolveOrders(orders);
  const curve = new Float64Array(grid.length);
  const eps = (sigma: number) =>
    rdpToEpsilon(grid, subsampledGaussianRdpCurve(q, sigma, grid, 1, curve), delta, conversion);
  const zero = new Float64Array(grid.length);
  const floor = rdpToEpsilon(grid, zero, delta, conversion).epsilon;
  if (floor >= epsilon) {
    throw new UnreachablePrivacyTargetError(
      `AdaPrivate-TS-Amp: epsilon ${epsilon} at delta ${delta} is unreachable with the '${orders}' order grid: the conversion term alone gives ${floor.toPrecision(4)}. Use orders 'extended' or a larger epsilon.`,
      floor,
    );
  }
  let lo = 1e-3;
  let hi = 1;
  while (eps(hi).epsilon > epsilon) {
    lo = hi;
    hi *= 2;
    if (hi > 1e12)
      throw new UnreachablePrivacyTargetError(
        'AdaPrivate-TS-Amp: no sigma below 1e12 meets the target.',
        floor,
      );
  }
  if (eps(lo).epsilon <= epsilon) lo = 1e-6;
  for (let i = 0; i < 200 && hi / lo - 1 > 1e-10; i++) {
    const mid = Math.sqrt(lo * hi);
    if (eps(mid).epsilon <= epsilon) hi = mid;
    else lo = mid;
  }
  return { sigma: hi, order: eps(hi).order };
}
