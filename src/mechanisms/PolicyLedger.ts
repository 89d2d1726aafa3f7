/**
 * A policy's ledger as the mechanisms room uses it: `record` with a reused info object (so per-round
 * releases allocate nothing), where the noise came from (secure or seeded, and which sampler), and
 * the seeded-release count of the lineage. Built by {@link makeLedger}; only the room records in it.
 */
import {
  type AccountantName,
  gaussianPlanEpsilon,
  type NoiseKind,
  type NoiseSampler,
  type PrivacyEvent,
  PrivacyLedger,
  type PrivacySpent,
} from '../privacy/index.js';

/**
 * A policy's guarantee: the ledger's figures, with the accountant behind `epsilon` named and, when
 * that accountant is not the ledger's own (zCDP or RDP), the ledger's figure kept for comparison.
 */
export interface AccountedSpent extends PrivacySpent {
  /** The accountant behind `epsilon`: 'exact', 'zcdp' or 'rdp' (absent for non-private policies). */
  readonly accountant?: AccountantName;
  /** The same releases under the ledger's zCDP or RDP accounting (present when `accountant` is 'exact'). */
  readonly comparison?: {
    readonly accountant: AccountantName;
    readonly epsilon: number;
    readonly conversion: string;
  };
}

/**
 * What a ledger needs to report a policy's releases under the exact accountant: the releases'
 * Poisson rate q and, for q < 1, their noise multiplier (q = 1: Gaussian DP from the recorded rho).
 */
export interface ExactReport {
  readonly q: number;
  readonly multiplier: number;
}

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
  spent(): AccountedSpent;
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
  private cache: { readonly inner: PrivacySpent; readonly outer: AccountedSpent } | null = null;

  /** The RDP order of the noise calibration (Amp), reported by `spent()` until a release names one. */
  private readonly calibratedOrder: number | null;
  /** Set when the policy's accountant is 'exact': `spent()` then reports the exact curve. */
  private readonly exact: ExactReport | null;

  constructor(
    ledger: PrivacyLedger,
    seededReleases = 0,
    calibratedOrder: number | null = null,
    exact: ExactReport | null = null,
  ) {
    this.ledger = ledger;
    this.seeded = seededReleases;
    this.calibratedOrder = calibratedOrder;
    this.exact = exact;
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

  spent(): AccountedSpent {
    const inner = this.ledger.spent();
    const c = this.cache;
    if (c !== null && c.inner === inner) return c.outer;
    const noise: NoiseKind = this.noise === 'seeded' || this.seeded > 0 ? 'seeded' : 'secure';
    const order = inner.order ?? this.calibratedOrder;
    const where = noise === 'secure' ? { noise, sampler: this.sampler } : { noise };
    const own: AccountantName = inner.rho === null ? 'rdp' : 'zcdp';
    const exact = this.exact === null ? null : this.exactEpsilon(inner, noise);
    const outer: AccountedSpent = Object.freeze(
      exact === null
        ? { ...inner, order, ...where, accountant: own }
        : {
            ...inner,
            epsilon: exact.epsilon,
            conversion: exact.method,
            order: null,
            orderAtEdge: false,
            ...where,
            accountant: 'exact' as const,
            comparison: Object.freeze({
              accountant: own,
              epsilon: inner.epsilon,
              conversion: inner.conversion,
            }),
          },
    );
    this.cache = { inner, outer };
    return outer;
  }

  /**
   * The exact epsilon(delta) of the recorded releases. Gaussian releases (q = 1): Gaussian DP with
   * mu^2 = sum (Delta_i / sigma_i)^2 = 2 rho (sequential: summed; parallel: the largest partition),
   * by the exact curve (with the proven margin of the discrete sampler when the noise was drawn by
   * it). Subsampled releases (Amp): one release per partition has the closed-form curve; when a
   * rewind put several releases in one partition, at most releases - partitions + 1 of them are in
   * the same partition, composed by privacy loss distributions (an upper bound).
   */
  private exactEpsilon(inner: PrivacySpent, noise: NoiseKind): { epsilon: number; method: string } | null {
    const plan = this.exact!;
    if (inner.releases === 0) return { epsilon: 0, method: 'exact' };
    const distribution = noise === 'secure' && this.sampler === 'discrete' ? 'discrete' : 'continuous';
    if (plan.q >= 1) {
      const rho = inner.rho;
      if (rho === null) return null;
      if (rho === 0) return { epsilon: 0, method: 'gdp' };
      const g = gaussianPlanEpsilon(
        1 / Math.sqrt(2 * rho),
        { sensitivity: 1, compositions: 1, q: 1 },
        inner.delta,
        'exact',
        { noise: distribution },
      );
      return { epsilon: g.epsilon, method: g.method };
    }
    const count = Math.max(1, inner.releases - inner.partitions + 1);
    const g = gaussianPlanEpsilon(
      plan.multiplier,
      { sensitivity: 1, compositions: count, q: plan.q },
      inner.delta,
      'exact',
      { noise: distribution },
    );
    return { epsilon: g.epsilon, method: g.method };
  }

  toJSON(): unknown {
    return this.ledger.toJSON();
  }

  fresh(): LedgerLike {
    const l = this.ledger;
    const out = new PolicyLedger(
      new PrivacyLedger({
        delta: l.delta,
        composition: l.composition,
        conversion: l.conversion,
        orders: l.orders,
        logLimit: l.logLimit,
      }),
      0,
      this.calibratedOrder,
      this.exact,
    );
    out.noise = this.noise;
    out.sampler = this.sampler;
    return out;
  }

  restoreFrom(json: unknown, seededReleases: number): LedgerLike {
    if (!Number.isSafeInteger(seededReleases) || seededReleases < 0) {
      throw new RangeError(
        `restore: seededReleases must be a non-negative integer. Got ${String(seededReleases)}.`,
      );
    }
    const out = new PolicyLedger(
      PrivacyLedger.fromJSON(json),
      seededReleases,
      this.calibratedOrder,
      this.exact,
    );
    out.noise = this.noise;
    out.sampler = this.sampler;
    return out;
  }
}

/**
 * A ledger for a policy: `composition` 'parallel' (each reward in one batch/episode) or 'sequential';
 * `exact` when the policy's accountant is 'exact' (its guarantee is then the exact curve's).
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
  exact: ExactReport | null = null,
): LedgerLike {
  return new PolicyLedger(
    new PrivacyLedger({ delta, composition, conversion, orders }),
    0,
    calibratedOrder,
    exact,
  );
}
