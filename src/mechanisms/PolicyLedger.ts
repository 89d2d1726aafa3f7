/**
 * A policy's ledger as the mechanisms room uses it: `record` with a reused info object (so per-round
 * releases allocate nothing), where the noise came from (secure or seeded, and which sampler), and
 * the seeded-release count of the lineage. Built by {@link makeLedger}; only the room records in it.
 */
import {
  type NoiseDistribution,
  type NoiseKind,
  type NoiseSampler,
  type PrivacyEvent,
  PrivacyLedger,
  type PrivacySpent,
} from '../privacy/index.js';

/** A policy's guarantee: the ledger's figures (with the accountant behind them). */
export type AccountedSpent = PrivacySpent;

/**
 * How a policy's ledger accounts its releases under the exact accountant: the noise distribution
 * its calibration assumed ('discrete' for the secure sampler; 'continuous' for Amp's float sampler).
 */
export interface ExactReport {
  readonly noise: NoiseDistribution;
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

  spent(): AccountedSpent {
    const inner = this.ledger.spent();
    const c = this.cache;
    if (c !== null && c.inner === inner) return c.outer;
    const noise: NoiseKind = this.noise === 'seeded' || this.seeded > 0 ? 'seeded' : 'secure';
    const order = inner.accountant === 'exact' ? inner.order : (inner.order ?? this.calibratedOrder);
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
    const out = new PolicyLedger(
      new PrivacyLedger({
        delta: l.delta,
        composition: l.composition,
        conversion: l.conversion,
        orders: l.orders,
        logLimit: l.logLimit,
        ...(l.accountant === null ? {} : { accountant: l.accountant, noise: l.noise }),
      }),
      0,
      this.calibratedOrder,
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
    const out = new PolicyLedger(PrivacyLedger.fromJSON(json), seededReleases, this.calibratedOrder);
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
  const accountant = exact === null ? {} : { accountant: 'exact' as const, noise: exact.noise };
  return new PolicyLedger(
    new PrivacyLedger({ delta, composition, conversion, orders, ...accountant }),
    0,
    calibratedOrder,
  );
}
