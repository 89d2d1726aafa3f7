/**
 * The policies' bridge to src/privacy: the ledger as the policies use it (record with a reused info
 * object, so per-round releases allocate nothing), the budget in rho, and the calibration of the
 * amplified noise.
 */
import {
  epsilonToRho,
  gaussianEvent,
  type NoiseKind,
  type NoiseSampler,
  type PrivacyEvent,
  PrivacyLedger,
  type PrivacySpent,
  rdpOrderToEpsilon,
  rdpToEpsilon,
  resolveOrders,
  subsampledGaussianEvent,
  subsampledGaussianRdp,
  UnreachablePrivacyTargetError,
  zcdpToEpsilon,
} from '../privacy/index.js';
import type { BudgetConfig } from './PolicyOptions.js';

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
  noise: 'none',
});

/** What a policy needs from its ledger. */
export interface LedgerLike {
  record(event: PrivacyEvent, round: number, partition: number, label: string): void;
  /** The guarantee spent, with `noise` saying where the noise of the releases came from. */
  spent(): PrivacySpent;
  /** Sets where the noise of the following releases comes from, and how secure noise is drawn. */
  setNoise(kind: 'secure' | 'seeded', sampler?: NoiseSampler): void;
  /** How many recorded releases used seeded noise (research mode), over the policy's lineage. */
  readonly seededReleases: number;
  toJSON(): unknown;
  /** A ledger restored from `toJSON` output and its seeded-release count (the policy replaces its own with it). */
  restoreFrom(json: unknown, seededReleases: number): LedgerLike;
  /** An empty ledger with the same delta, composition, conversion and orders. */
  fresh(): LedgerLike;
}

class PolicyLedger implements LedgerLike {
  private readonly ledger: PrivacyLedger;
  private readonly info = { round: 0, partition: 0, label: '' };
  private noise: 'secure' | 'seeded' = 'secure';
  private sampler: NoiseSampler = 'discrete';
  /** Releases of the lineage made with seeded noise (research mode). */
  private seeded: number;
  private cache: { readonly inner: PrivacySpent; readonly outer: PrivacySpent } | null = null;

  /** The RDP order of the noise calibration (Amp), reported by `spent()` until a release names one. */
  private readonly calibratedOrder: number | null;

  constructor(ledger: PrivacyLedger, seededReleases = 0, calibratedOrder: number | null = null) {
    this.ledger = ledger;
    this.seeded = seededReleases;
    this.calibratedOrder = calibratedOrder;
  }

  get seededReleases(): number {
    return this.seeded;
  }

  record(event: PrivacyEvent, round: number, partition: number, label: string): void {
    const info = this.info;
    info.round = round;
    info.partition = partition;
    info.label = label;
    this.ledger.record(event, info);
    if (this.noise === 'seeded') this.seeded++;
  }

  setNoise(kind: 'secure' | 'seeded', sampler: NoiseSampler = 'discrete'): void {
    this.noise = kind;
    this.sampler = sampler;
    this.cache = null;
  }

  spent(): PrivacySpent {
    const inner = this.ledger.spent();
    const c = this.cache;
    if (c !== null && c.inner === inner) return c.outer;
    const noise: NoiseKind = this.noise === 'seeded' || this.seeded > 0 ? 'seeded' : 'secure';
    const order = inner.order ?? this.calibratedOrder;
    const outer = Object.freeze(
      noise === 'secure' ? { ...inner, order, noise, sampler: this.sampler } : { ...inner, order, noise },
    );
    this.cache = { inner, outer };
    return outer;
  }

  toJSON(): unknown {
    return this.ledger.toJSON();
  }

  fresh(): LedgerLike {
    const l = this.ledger;
    return new PolicyLedger(
      new PrivacyLedger({
        delta: l.delta,
        composition: l.composition,
        conversion: l.conversion,
        orders: l.orders,
        logLimit: l.logLimit,
      }),
    );
  }

  restoreFrom(json: unknown, seededReleases: number): LedgerLike {
    if (!Number.isSafeInteger(seededReleases) || seededReleases < 0) {
      throw new RangeError(
        `restore: seededReleases must be a non-negative integer. Got ${String(seededReleases)}.`,
      );
    }
    const out = new PolicyLedger(PrivacyLedger.fromJSON(json), seededReleases, this.calibratedOrder);
    out.noise = this.noise;
    out.sampler = this.sampler;
    return out;
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
  calibratedOrder: number | null = null,
): LedgerLike {
  return new PolicyLedger(new PrivacyLedger({ delta, composition, conversion, orders }), 0, calibratedOrder);
}

/**
 * The zCDP budget of a private policy's config: `rho` when given, else from (epsilon, delta) by the
 * classic conversion (SPEC section 2).
 *
 * @example
 * budgetRho({ epsilon: 5, delta: 1e-5 }); // returns ~0.4496
 */
export function budgetRho(config: BudgetConfig): number {
  if (config.rho !== undefined) return config.rho;
  return epsilonToRho(config.epsilon, config.delta, 'classic');
}

/** The (epsilon, delta) target of a private policy's config (epsilon from rho when rho was given). */
export function budgetEpsilon(config: BudgetConfig): number {
  if (config.epsilon !== undefined) return config.epsilon;
  return zcdpToEpsilon(config.rho, config.delta, 'classic');
}

const calibrationCache = new Map<string, { sigma: number; order: number }>();

/**
 * LOCAL ADAPTER (src/privacy exports no calibrator yet): the smallest noise multiplier sigma such that
 * one Poisson-subsampled Gaussian release (rate q, sensitivity 1) is (epsilon, delta)-DP by the RDP
 * accountant on the order grid, to relative precision 1e-9. Throws UnreachablePrivacyTargetError
 * when even sigma -> infinity misses the target (the conversion term alone exceeds epsilon).
 *
 * Method (every order's epsilon is decreasing in sigma, so sigma* = min over orders of the sigma
 * that meets the target at that order): bisection on the integer orders of the grid (cheap exact
 * binomial sums) gives sigma_int; a fractional order can only lower sigma* if it already meets the
 * target at sigma_int, and only those orders are bisected individually (their series are costly).
 * Results are cached per (epsilon, delta, q, grid, conversion): experiment runs create many
 * policies with the same budget.
 *
 * @example
 * calibrateSubsampledSigma(1, 1e-5, 0.3, 'paper', 'classic').sigma; // returns the sigma_amp of q = 0.3
 */
export function calibrateSubsampledSigma(
  epsilon: number,
  delta: number,
  q: number,
  orders: 'paper' | 'extended',
  conversion: 'classic' | 'improved',
): { sigma: number; order: number } {
  const key = `${epsilon}|${delta}|${q}|${orders}|${conversion}`;
  const hit = calibrationCache.get(key);
  if (hit !== undefined) return hit;
  const grid = resolveOrders(orders);
  const floor = rdpToEpsilon(grid, new Float64Array(grid.length), delta, conversion).epsilon;
  if (floor >= epsilon) {
    throw new UnreachablePrivacyTargetError(
      `AdaPrivate-TS-Amp: epsilon ${epsilon} at delta ${delta} is unreachable with the '${orders}' order grid: the conversion term alone gives ${floor.toPrecision(4)}. Use orders 'extended' or a larger epsilon.`,
      floor,
    );
  }
  const ints = grid.filter((a) => Number.isInteger(a));
  const fracs = grid.filter((a) => !Number.isInteger(a));
  const epsAt = (sigma: number, set: readonly number[]): number => {
    let best = Number.POSITIVE_INFINITY;
    for (const a of set)
      best = Math.min(best, rdpOrderToEpsilon(subsampledGaussianRdp(q, sigma, a), a, delta, conversion));
    return best;
  };
  const solve = (set: readonly number[], hiStart: number): number => {
    let hi = hiStart;
    while (epsAt(hi, set) > epsilon) {
      hi *= 2;
      if (hi > 1e12) return Number.POSITIVE_INFINITY;
    }
    let lo = hi / 2;
    while (epsAt(lo, set) <= epsilon) {
      hi = lo;
      lo /= 2;
      if (lo < 1e-12) return hi;
    }
    for (let i = 0; i < 200 && hi / lo - 1 > 1e-10; i++) {
      const mid = Math.sqrt(lo * hi);
      if (epsAt(mid, set) <= epsilon) hi = mid;
      else lo = mid;
    }
    return hi;
  };
  let sigma = ints.length > 0 ? solve(ints, 1) : Number.POSITIVE_INFINITY;
  for (const a of fracs) {
    const start = Number.isFinite(sigma) ? sigma : 1;
    if (Number.isFinite(sigma) && epsAt(sigma, [a]) > epsilon) continue; // cannot improve on sigma
    sigma = Math.min(sigma, solve([a], start));
  }
  if (!Number.isFinite(sigma)) {
    throw new UnreachablePrivacyTargetError(
      'AdaPrivate-TS-Amp: no sigma below 1e12 meets the target.',
      floor,
    );
  }
  let order = grid[0]!;
  let bestEps = Number.POSITIVE_INFINITY;
  for (const a of grid) {
    const e = rdpOrderToEpsilon(subsampledGaussianRdp(q, sigma, a), a, delta, conversion);
    if (e < bestEps) {
      bestEps = e;
      order = a;
    }
  }
  const result = Object.freeze({ sigma, order });
  calibrationCache.set(key, result);
  return result;
}
