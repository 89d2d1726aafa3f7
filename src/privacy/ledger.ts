/**
 * The privacy ledger: a mechanism records every noisy release it makes, and the ledger reports
 * the guarantee actually spent, in rho (when every release is zCDP-expressible) and in
 * (epsilon, delta).
 *
 * Composition: releases on the same partition of the data always compose sequentially. With
 * `composition: 'sequential'` all partitions compose sequentially too (costs add); with
 * `'parallel'` the partitions are disjoint parts of the data (each reward in exactly one batch),
 * so the guarantee is the maximum over partitions (per RDP order when subsampled releases occur).
 *
 * Storage is aggregated, not one object per release: sequential ledgers keep one running rho and
 * (if needed) one RDP curve; parallel ledgers keep one rho (and a curve only for partitions with
 * subsampled releases) per distinct partition, plus running maxima. Once {@link FOLD_AT}
 * partitions are kept, all but the newest {@link FOLD_KEEP} are folded into one summary ({@link
 * FoldedPartitions}): their largest rho, the pointwise maximum of their RDP curves, under the exact
 * accountant the largest Gaussian mu^2, the composition of largest epsilon (and the largest lower
 * value) among those with subsampled releases and the join of all their compositions, and their ids
 * as ranges. So a ledger that releases on a new partition every batch for a year stays small, and
 * its guarantee (the maximum over partitions) does not change. A later release on a folded
 * partition (a re-release after a research rewind) starts from the summary's largest figures (the
 * join): an upper bound, never below the partition's true cost. The detailed log keeps the
 * first and last `logLimit` entries, merging identical consecutive releases into one entry with
 * a count, so a mechanism that releases every round (10^7 times) uses bounded memory.
 * Cost per `record`: O(1) for zCDP events; O(|orders|) for a subsampled event already seen
 * (curves are cached per (q, sigma)). `spent()` is cached until the next record.
 *
 * Accountant (`accountant` option): without it (and for ledgers saved without the field) the ledger
 * is today's zCDP/RDP accountant. With `accountant: 'exact'` it also keeps, per partition, the Gaussian
 * DP mu^2 of its Gaussian releases (O(1) per record) and counts of its subsampled releases per
 * (q, sigma); `spent()` reports the exact epsilon (closed forms, or the PLD upper bound with its
 * optimistic value, computed only at spent() and cached per distinct partition composition), names
 * the accountant and method, and gives the zCDP (or RDP) figure in `comparison`. Parallel composition
 * under the exact curve: each record is in one partition, so delta(eps) = max over partitions of that
 * partition's curve, and epsilon(delta) = max over partitions of their epsilon(delta)
 * (docs/privacy.md). `accountant: 'zcdp'` refuses subsampled releases (no zCDP bound); 'rdp' is
 * today's accountant by name.
 */
import type { AccountantName, NoiseDistribution } from './calibrateGaussianNoise.js';
import { assertConversion, assertDelta, type Conversion, rdpToEpsilon } from './conversion.js';
import { eventCost, needsRdp } from './eventCost.js';
import { assertPrivacyEvent, type PrivacyEvent } from './events.js';
import {
  addToExactComposition,
  assertExactSupports,
  type ExactComposition,
  emptyExactComposition,
  exactEpsilon,
  exactSignature,
} from './exactCurve.js';
import { type OrderSpec, resolveOrders } from './orders.js';
import { UnsupportedPrivacyEventError } from './UnsupportedPrivacyEventError.js';
import { zcdpToEpsilonUnchecked } from './zcdp.js';

/** The guarantee a mechanism has actually spent, computed from its ledger of releases. */
export interface PrivacySpent {
  /**
   * Total zCDP rho, or null when the releases are not zCDP-expressible (subsampled releases). Reported
   * under every accountant (under 'exact' it is the rho of the comparison figure).
   */
  readonly rho: number | null;
  readonly epsilon: number;
  readonly delta: number;
  /** How many noisy releases were recorded (self-composed events count `count` times). */
  readonly releases: number;
  /** How releases composed: disjoint data (parallel) or the same data (sequential). */
  readonly composition: 'parallel' | 'sequential' | 'none';
  /**
   * Which (eps, delta) conversion produced `epsilon`: 'zcdp-classic' (eps = rho + 2 sqrt(rho ln(1/delta)),
   * Bun & Steinke 2016), 'zcdp-cks' (Canonne, Kamath & Steinke 2020), 'rdp-classic' (Mironov 2017),
   * 'rdp-improved' (Balle et al. 2020), 'exact' (no conversion: the exact accountant; see `method`), or
   * 'none' for an empty ledger.
   */
  readonly conversion: string;
  /** The RDP order that attains `epsilon`, when RDP accounting was used. */
  readonly order: number | null;
  /** True when `order` is at the edge of the order grid (a longer grid might give less). */
  readonly orderAtEdge: boolean;
  /** Distinct data partitions seen (parallel ledgers; sequential ledgers report 1 once non-empty). */
  readonly partitions: number;
  /**
   * The accountant behind `epsilon`: 'exact' (Gaussian DP / exact curves / PLD), 'zcdp' or 'rdp'.
   * Always set by a ledger (optional only for summaries built elsewhere, e.g. non-private policies).
   * A ledger without the `accountant` option reports 'zcdp' when every release is zCDP-expressible and
   * 'rdp' otherwise (today's behaviour).
   */
  readonly accountant?: AccountantName;
  /**
   * How `epsilon` was computed: 'gdp', 'subsampled-exact', 'pld' (exact accountant), or the
   * `conversion` name for zCDP/RDP; 'none' for an empty ledger.
   */
  readonly method?: string;
  /**
   * A value the true epsilon is at least: equal to `epsilon` for closed forms; the optimistic PLD value
   * for PLD (the discretisation error is epsilon - epsilonLower).
   */
  readonly epsilonLower?: number;
  /**
   * The zCDP (or, with subsampled releases, RDP) figure for the same releases, for comparison; null
   * unless the accountant is 'exact'.
   */
  readonly comparison?: {
    readonly accountant: 'zcdp' | 'rdp';
    readonly epsilon: number;
    readonly rho: number | null;
    readonly order: number | null;
  } | null;
  /**
   * Where the noise of the releases came from, as reported by a policy (a bare ledger does not know
   * and leaves it out): 'secure' (a cryptographically secure source nobody can replay), 'seeded'
   * (reproducible from the policy's `noiseSeed`: research mode; reported as soon as one release of
   * the policy's lineage was seeded) or 'none' (a non-private policy adds no noise).
   */
  readonly noise?: NoiseKind;
  /**
   * How secure noise is drawn, reported by a policy when `noise` is 'secure': 'discrete' (the exact
   * discrete Gaussian on a power-of-two grid: the released values are exact grid points, floating
   * point cannot leak) or 'float' (continuous Gaussian normals from the secure bits, in floating
   * point: AdaPrivate-TS-Amp with q < 1, whose subsampled RDP analysis is for the continuous
   * Gaussian; docs/privacy.md, "Threat model").
   */
  readonly sampler?: NoiseSampler;
}

/** See {@link PrivacySpent.noise}. */
export type NoiseKind = 'secure' | 'seeded' | 'none';

/** See {@link PrivacySpent.sampler}. */
export type NoiseSampler = 'discrete' | 'float';

/** One line of the ledger's detailed log (identical consecutive releases are merged). */
export interface LedgerEntry {
  readonly label: string;
  readonly kind: PrivacyEvent['kind'];
  readonly event: PrivacyEvent;
  /** Round of the first and last merged release. */
  readonly round: number;
  readonly lastRound: number;
  /** Partition of the first and last merged release (consecutive partitions merge). */
  readonly partition: number;
  readonly lastPartition: number;
  /** How many releases this entry stands for. */
  readonly count: number;
  /** Top-level parameters when the event has them, else null. */
  readonly sensitivity: number | null;
  readonly sigma: number | null;
  readonly q: number | null;
  /** rho of one release when zCDP-expressible, else null. */
  readonly rho: number | null;
}

/** Options of a {@link PrivacyLedger}. */
export interface PrivacyLedgerOptions {
  /** delta of the reported (epsilon, delta), in (0, 1). Required. */
  readonly delta: number;
  /** How different partitions compose: 'parallel' (disjoint data) or 'sequential'. Required. */
  readonly composition: 'parallel' | 'sequential';
  /**
   * Conversion to (epsilon, delta): 'classic' (default; the paper's: zCDP rho + 2 sqrt(rho ln(1/delta)),
   * RDP Mironov 2017) or 'improved' (CKS 2020 for zCDP, Balle et al. 2020 for RDP).
   */
  readonly conversion?: Conversion;
  /** RDP order grid for subsampled releases: 'extended' (default), 'paper' or a list of orders > 1. */
  readonly orders?: OrderSpec;
  /** Entries kept at the head and at the tail of the detailed log; default 64, integer in [1, 10^6]. */
  readonly logLimit?: number;
  /**
   * The accountant: 'exact', 'zcdp' (refuses subsampled releases) or 'rdp'. Default: none, which is
   * today's zCDP/RDP accountant (reported as 'zcdp' or 'rdp'); saved ledgers without it restore so.
   */
  readonly accountant?: AccountantName;
  /**
   * 'exact' only: the noise the releases drew. 'discrete' (default, conservative for both samplers)
   * adds the discrete Gaussian's proven margin (1 + e^eps) mu^2 2^-43 to delta; 'continuous' does not.
   */
  readonly noise?: NoiseDistribution;
}

interface MutableEntry {
  label: string;
  kind: PrivacyEvent['kind'];
  event: PrivacyEvent;
  key: string | null;
  round: number;
  lastRound: number;
  partition: number;
  lastPartition: number;
  count: number;
  sensitivity: number | null;
  sigma: number | null;
  q: number | null;
  rho: number | null;
}

/** Serialised form of a ledger (see {@link PrivacyLedger.toJSON}). */
export interface PrivacyLedgerJSON {
  readonly format: 'adaprivate.privacyLedger';
  /**
   * 1: no accountant field (today's accountant); 2: with `accountant` (and `exact` for 'exact');
   * 3: with `folded` (and `accountant` when one is named).
   */
  readonly version: 1 | 2 | 3;
  /**
   * Folded partitions (version 3): their largest rho and Gaussian mu^2, their ids as [lo, hi]
   * ranges and, when any had them, the pointwise maximum of their RDP curves (`full`) and, under the
   * exact accountant, the composition of largest epsilon with subsampled releases (`worst`), the
   * largest lower value (`lower`) and the join of their compositions (`join`).
   */
  readonly folded?: {
    readonly rho: number;
    readonly mu2: number;
    readonly ranges: readonly (readonly [number, number])[];
    readonly full?: readonly (number | null)[];
    readonly worst?: ExactCompositionJSON;
    readonly lower?: number;
    readonly join?: ExactCompositionJSON;
  };
  readonly accountant?: AccountantName;
  readonly noise?: NoiseDistribution;
  /** The exact accountant's state: per partition (0 for sequential ledgers) mu^2 and [q, sigma, count] parts. */
  readonly exact?: readonly (readonly [number, number, readonly (readonly [number, number, number])[]])[];
  readonly delta: number;
  readonly composition: 'parallel' | 'sequential';
  readonly conversion: Conversion;
  readonly orders: readonly number[];
  readonly logLimit: number;
  readonly releases: number;
  readonly rho: number;
  readonly rdp: readonly (number | null)[] | null;
  /** [partition, rho, rdp curve or null] for parallel ledgers; empty for sequential ones. */
  readonly partitions: readonly (readonly [number, number, readonly (number | null)[] | null])[];
  readonly partitionCount: number;
  readonly head: readonly LedgerEntry[];
  readonly tail: readonly LedgerEntry[];
  readonly droppedEntries: number;
}

const MAX_CURVE_CACHE = 256;

/** An exact composition as saved: mu^2 and its [q, sigma, count] parts. */
type ExactCompositionJSON = readonly [number, readonly (readonly [number, number, number])[]];

/** The partitions a parallel ledger folded (see the module doc): what their guarantee and a later release on one of them need. */
interface FoldedPartitions {
  /** The largest rho among them. */
  rho: number;
  /** The largest mu^2 among the Gaussian-only ones (exact accountant). */
  mu2: number;
  /** Their ids: sorted, disjoint, inclusive ranges. */
  ranges: [number, number][];
  /** The pointwise maximum of their whole RDP curves (orders x rho + curve); null while none had a curve. */
  full: Float64Array | null;
  /** Exact accountant: the one with subsampled releases of largest epsilon (null: none). */
  worst: ExactComposition | null;
  /** Exact accountant: the largest lower value among those with subsampled releases. */
  lower: number;
  /** Exact accountant: the join of their compositions (largest mu^2, largest count per part). */
  join: ExactComposition | null;
}

/** Copies composition `from` into `to` (its parts as new objects); returns `to`. */
function copyComposition(from: ExactComposition, to: ExactComposition): ExactComposition {
  to.mu2 = from.mu2;
  to.parts.clear();
  for (const [k, p] of from.parts) to.parts.set(k, { q: p.q, s: p.s, count: p.count });
  return to;
}

/**
 * Joins `c` into `into`: the largest mu^2 and, per subsampled part, the largest count, so that the
 * result composes at least every composition joined into it; returns `into`.
 */
function joinComposition(into: ExactComposition, c: ExactComposition): ExactComposition {
  into.mu2 = Math.max(into.mu2, c.mu2);
  for (const [k, p] of c.parts) {
    const have = into.parts.get(k);
    if (have === undefined) into.parts.set(k, { q: p.q, s: p.s, count: p.count });
    else have.count = Math.max(have.count, p.count);
  }
  return into;
}

function compositionToJson(c: ExactComposition): ExactCompositionJSON {
  return [c.mu2, [...c.parts.values()].map((x) => [x.q, x.s, x.count] as const)];
}

/**
 * Adds saved [q, sigma, count] parts to `c` (validated; `label` starts the message about a bad one).
 */
function addPartsFromJson(c: ExactComposition, parts: readonly unknown[], label: string): void {
  for (const part of parts) {
    const [q, sigma, count] = Array.isArray(part) ? part : [];
    if (
      typeof q !== 'number' ||
      !(q > 0 && q < 1) ||
      typeof sigma !== 'number' ||
      !Number.isFinite(sigma) ||
      !(sigma > 0) ||
      !Number.isSafeInteger(count) ||
      count <= 0
    ) {
      throw new RangeError(
        `PrivacyLedger.fromJSON: ${label} ${JSON.stringify(part)} is not [q in (0,1), sigma > 0, count >= 1].`,
      );
    }
    c.parts.set(`${q}|${sigma}`, { q, s: sigma, count });
  }
}

/** An exact composition from its saved form (validated; `where` names it in messages). */
function compositionFromJson(v: unknown, where: string): ExactComposition {
  const [mu2, parts] = Array.isArray(v) && v.length === 2 ? v : [Number.NaN, null];
  if (typeof mu2 !== 'number' || !Number.isFinite(mu2) || mu2 < 0 || !Array.isArray(parts)) {
    throw new RangeError(`PrivacyLedger.fromJSON: ${where} must be [mu2 >= 0, parts].`);
  }
  const c = emptyExactComposition();
  c.mu2 = mu2;
  addPartsFromJson(c, parts, `${where}: part`);
  return c;
}

function foldedToJson(f: FoldedPartitions): NonNullable<PrivacyLedgerJSON['folded']> {
  return {
    rho: f.rho,
    mu2: f.mu2,
    ranges: f.ranges.map(([a, b]) => [a, b] as const),
    ...(f.full === null ? {} : { full: Array.from(f.full, toJsonNumber) }),
    ...(f.worst === null ? {} : { worst: compositionToJson(f.worst) }),
    ...(f.lower === 0 ? {} : { lower: f.lower }),
    ...(f.join === null ? {} : { join: compositionToJson(f.join) }),
  };
}

/** Explicit partitions of a parallel ledger at which the zCDP-only ones are folded (see the module doc). */
export const FOLD_AT = 64;
/** The newest foldable partitions a fold keeps apart. */
export const FOLD_KEEP = 16;

/** Adds partition `p` to sorted, disjoint, inclusive ranges (merging neighbours). */
function addToRanges(ranges: [number, number][], p: number): void {
  const last = ranges.at(-1);
  if (last !== undefined && p === last[1] + 1) {
    last[1] = p;
    return;
  }
  if (last === undefined || p > last[1]) {
    ranges.push([p, p]);
    return;
  }
  // not after the last range: find the first range ending at or after p - 1
  let i = 0;
  while (ranges[i]![1] < p - 1) i++;
  const r = ranges[i]!;
  if (p >= r[0] && p <= r[1]) return;
  if (p === r[1] + 1) {
    r[1] = p;
    const next = ranges[i + 1];
    if (next !== undefined && next[0] === p + 1) {
      r[1] = next[1];
      ranges.splice(i + 1, 1);
    }
    return;
  }
  if (p === r[0] - 1) {
    r[0] = p;
    return;
  }
  ranges.splice(i, 0, [p, p]);
}

/** Removes partition `p` (which they hold) from sorted, disjoint, inclusive ranges (splitting one). */
function removeFromRanges(ranges: [number, number][], p: number): void {
  const i = ranges.findIndex(([a, b]) => p >= a && p <= b);
  if (i < 0) return;
  const [a, b] = ranges[i]!;
  const parts: [number, number][] = [];
  if (a <= p - 1) parts.push([a, p - 1]);
  if (p + 1 <= b) parts.push([p + 1, b]);
  ranges.splice(i, 1, ...parts);
}

/** The `folded` field of a version-3 ledger snapshot, checked (numbers >= 0; ranges sorted, disjoint, not adjacent). */
function foldedFromJson(
  f: NonNullable<PrivacyLedgerJSON['folded']>,
  orders: readonly number[],
): FoldedPartitions {
  const bad = (why: string): never => {
    throw new RangeError(`PrivacyLedger.fromJSON: folded partitions: ${why}.`);
  };
  if (typeof f !== 'object' || f === null) bad('must be an object');
  const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  if (!ok(f.rho) || !ok(f.mu2)) bad('rho and mu2 must be numbers >= 0');
  if (!Array.isArray(f.ranges) || f.ranges.length === 0) bad('ranges must be a non-empty array');
  const ranges: [number, number][] = [];
  for (const r of f.ranges) {
    const [a, b] = Array.isArray(r) && r.length === 2 ? r : [Number.NaN, Number.NaN];
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a < 0 || b < a)
      bad('each range is [lo, hi], integers 0 <= lo <= hi');
    const prev = ranges.at(-1);
    if (prev !== undefined && a <= prev[1] + 1) bad('ranges must be sorted, disjoint and not adjacent');
    ranges.push([a, b]);
  }
  let full: Float64Array | null = null;
  if (f.full !== undefined) {
    if (!Array.isArray(f.full) || f.full.length !== orders.length)
      bad(`full must have one value per order (${orders.length})`);
    full = Float64Array.from(f.full, fromJsonNumber);
    for (let i = 0; i < orders.length; i++) {
      if (!(full[i]! >= orders[i]! * f.rho * (1 - 1e-12))) bad('full must be at least orders x rho');
    }
  }
  if (f.lower !== undefined && !ok(f.lower)) bad('lower must be a number >= 0');
  const worst = f.worst === undefined ? null : compositionFromJson(f.worst, 'folded worst');
  const join = f.join === undefined ? null : compositionFromJson(f.join, 'folded join');
  if (worst !== null && join === null) bad('a worst composition needs the join');
  return { rho: f.rho, mu2: f.mu2, ranges, full, worst, lower: f.lower ?? 0, join };
}

function eventKey(e: PrivacyEvent): string {
  return JSON.stringify(e);
}

function flatFieldsEqual(a: PrivacyEvent, b: PrivacyEvent): boolean | null {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'gaussian':
      return b.kind === 'gaussian' && a.sensitivity === b.sensitivity && a.sigma === b.sigma;
    case 'subsampledGaussian':
      return b.kind === 'subsampledGaussian' && a.q === b.q && a.sigma === b.sigma;
    case 'zcdp':
      return b.kind === 'zcdp' && a.rho === b.rho;
    default:
      return null; // nested: compare by key
  }
}

const toJsonNumber = (v: number): number | null => (Number.isFinite(v) ? v : null);
const fromJsonNumber = (v: number | null): number => (v === null ? Number.POSITIVE_INFINITY : v);

/**
 * Records releases and reports the privacy actually spent.
 * @example
 * const ledger = new PrivacyLedger({ delta: 1e-5, composition: 'parallel' });
 * ledger.record(gaussianEvent(1, 1.0545), { round: 300, partition: 0, label: 'batch' });
 * ledger.spent().epsilon // ~5.0 (rho = 0.4496)
 */
export class PrivacyLedger {
  readonly delta: number;
  readonly composition: 'parallel' | 'sequential';
  readonly conversion: Conversion;
  readonly orders: readonly number[];
  readonly logLimit: number;
  /** The accountant named in every figure (null: today's zCDP/RDP accountant, reported by name). */
  readonly accountant: AccountantName | null;
  readonly noise: NoiseDistribution;

  private releases = 0;
  // exact accountant: per partition (key 0 for sequential ledgers); max mu^2 over Gaussian-only partitions
  private readonly exactParts = new Map<number, ExactComposition>();
  private readonly exactCache = new Map<string, { epsilon: number; epsilonLower: number; method: string }>();
  // sequential totals
  private seqRho = 0;
  private seqRdp: Float64Array | null = null;
  // parallel per-partition state and running maxima (costs only grow, so maxima update in O(1))
  private readonly partRho = new Map<number, number>();
  private readonly partRdp = new Map<number, Float64Array>();
  private partitionCount = 0;
  private readonly seenPartitions = new Set<number>();
  private maxRho = 0;
  private maxCurve: Float64Array | null = null; // max over partitions of alpha rho_p + rdp_p
  // folded partitions (parallel ledgers): their largest rho and mu^2, and their ids as sorted,
  // disjoint, inclusive [lo, hi] ranges; null until the first fold
  private folded: FoldedPartitions | null = null;
  // detailed log
  private readonly head: MutableEntry[] = [];
  private readonly tail: MutableEntry[] = [];
  private tailStart = 0;
  private droppedEntries = 0;
  private last: MutableEntry | null = null;
  // caches
  private readonly curveCache = new Map<string, Float64Array>();
  private spentCache: PrivacySpent | null = null;
  private readonly scratch: Float64Array;

  constructor(options: PrivacyLedgerOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new RangeError('PrivacyLedger: options must be an object with delta and composition.');
    }
    assertDelta(options.delta, 'PrivacyLedger: delta');
    if (options.composition !== 'parallel' && options.composition !== 'sequential') {
      throw new RangeError(
        `PrivacyLedger: composition must be 'parallel' or 'sequential'. Got ${JSON.stringify(options.composition)}.`,
      );
    }
    const conversion = options.conversion ?? 'classic';
    assertConversion(conversion, 'PrivacyLedger: conversion');
    const logLimit = options.logLimit ?? 64;
    if (!Number.isSafeInteger(logLimit) || logLimit < 1 || logLimit > 1e6) {
      throw new RangeError(
        `PrivacyLedger: logLimit must be an integer in [1, 1000000]. Got ${String(logLimit)}.`,
      );
    }
    const accountant = options.accountant ?? null;
    if (accountant !== null && accountant !== 'exact' && accountant !== 'zcdp' && accountant !== 'rdp') {
      throw new RangeError(
        `PrivacyLedger: accountant must be 'exact', 'zcdp' or 'rdp'. Got ${JSON.stringify(accountant)}.`,
      );
    }
    const noise = options.noise ?? 'discrete';
    if (noise !== 'discrete' && noise !== 'continuous') {
      throw new RangeError(
        `PrivacyLedger: noise must be 'discrete' or 'continuous'. Got ${JSON.stringify(noise)}.`,
      );
    }
    this.accountant = accountant;
    this.noise = noise;
    this.delta = options.delta;
    this.composition = options.composition;
    this.conversion = conversion;
    this.orders = resolveOrders(options.orders ?? 'extended');
    this.logLimit = logLimit;
    this.scratch = new Float64Array(this.orders.length);
  }

  /**
   * Records one release. `partition` names the disjoint data part (e.g. batch index) it used;
   * `round` is when it happened; `label` says what was released.
   * Throws RangeError on a malformed event or info, and UnsupportedPrivacyEventError on an event
   * kind no accountant handles (nothing is recorded then).
   */
  record(
    event: PrivacyEvent,
    info: { readonly round: number; readonly partition: number; readonly label: string },
  ): void {
    if (typeof info !== 'object' || info === null) {
      throw new RangeError('PrivacyLedger.record: info must be { round, partition, label }.');
    }
    if (!Number.isSafeInteger(info.round) || info.round < 0) {
      throw new RangeError(`PrivacyLedger.record: round must be an integer >= 0. Got ${String(info.round)}.`);
    }
    if (!Number.isSafeInteger(info.partition) || info.partition < 0) {
      throw new RangeError(
        `PrivacyLedger.record: partition must be an integer >= 0. Got ${String(info.partition)}.`,
      );
    }
    if (typeof info.label !== 'string') {
      throw new RangeError(`PrivacyLedger.record: label must be a string. Got ${String(info.label)}.`);
    }
    const last = this.last;
    const sameAsLast =
      last !== null &&
      last.label === info.label &&
      info.round >= last.lastRound &&
      (info.partition === last.lastPartition || info.partition === last.lastPartition + 1) &&
      this.sameEvent(last, event);
    if (!sameAsLast) {
      assertPrivacyEvent(event, 'PrivacyLedger.record: event');
      if (this.accountant === 'exact') assertExactSupports(event);
      if (this.accountant === 'zcdp' && needsRdp(event)) {
        throw new UnsupportedPrivacyEventError(
          'subsampledGaussian',
          'zCDP accountant',
          'a Poisson-subsampled Gaussian with q < 1 has no closed-form rho; use the exact or rdp accountant.',
        );
      }
    }
    const rdp = needsRdp(event);
    if (this.accountant === 'exact') {
      const key = this.composition === 'sequential' ? 0 : info.partition;
      let c = this.exactParts.get(key);
      if (c === undefined) {
        c = emptyExactComposition();
        // a folded partition again: it starts from the join of the folded compositions (an upper bound)
        const join = this.foldedHas(key) ? this.folded!.join : null;
        if (join !== null) copyComposition(join, c);
        this.exactParts.set(key, c);
      }
      addToExactComposition(c, event);
    }
    const cost = rdp ? this.cachedCost(event) : null;
    const rho = rdp ? (cost?.rho ?? 0) : eventCostRho(event);
    this.apply(rho, cost?.rdp ?? null, info.partition);
    this.releases += releaseCount(event);
    this.spentCache = null;
    if (sameAsLast && last !== null) {
      last.count += 1;
      last.lastRound = info.round;
      last.lastPartition = info.partition;
      return;
    }
    this.log({
      label: info.label,
      kind: event.kind,
      event,
      key: null,
      round: info.round,
      lastRound: info.round,
      partition: info.partition,
      lastPartition: info.partition,
      count: 1,
      sensitivity: event.kind === 'gaussian' ? event.sensitivity : null,
      sigma: event.kind === 'gaussian' || event.kind === 'subsampledGaussian' ? event.sigma : null,
      q: event.kind === 'subsampledGaussian' ? event.q : event.kind === 'gaussian' ? 1 : null,
      rho: rdp ? null : rho,
    });
  }

  private sameEvent(last: MutableEntry, event: PrivacyEvent): boolean {
    const flat = flatFieldsEqual(last.event, event);
    if (flat !== null) return flat;
    if (last.key === null) last.key = eventKey(last.event);
    return last.key === eventKey(event);
  }

  private cachedCost(event: PrivacyEvent): { rho: number; rdp: Float64Array | null } {
    const key = event.kind === 'subsampledGaussian' ? `${event.q}|${event.sigma}` : eventKey(event);
    let curve = this.curveCache.get(key);
    if (curve === undefined) {
      const c = eventCost(event, this.orders);
      // fold the zCDP part into the curve so the cache holds one array per event
      curve = new Float64Array(this.orders.length);
      for (let i = 0; i < curve.length; i++)
        curve[i] = this.orders[i]! * c.rho + (c.rdp === null ? 0 : c.rdp[i]!);
      if (this.curveCache.size >= MAX_CURVE_CACHE) this.curveCache.clear();
      this.curveCache.set(key, curve);
    }
    return { rho: 0, rdp: curve };
  }

  private apply(rho: number, rdp: Float64Array | null, partition: number): void {
    const n = this.orders.length;
    if (this.composition === 'sequential') {
      this.partitionCount = 1;
      this.seqRho += rho;
      if (rdp !== null) {
        if (this.seqRdp === null) this.seqRdp = new Float64Array(n);
        for (let i = 0; i < n; i++) this.seqRdp[i]! += rdp[i]!;
      }
      return;
    }
    let before = this.partRho.get(partition);
    if (before === undefined) {
      if (this.foldedHas(partition)) {
        // seen and folded: it starts from the largest folded rho (an upper bound) and is kept apart again
        const f = this.folded!;
        before = f.rho;
        removeFromRanges(f.ranges, partition);
        if (f.full !== null) {
          // and from the largest folded curve: whole curve = orders x rho + this part
          const prior = new Float64Array(n);
          for (let i = 0; i < n; i++) prior[i] = Math.max(0, f.full[i]! - this.orders[i]! * f.rho);
          this.partRdp.set(partition, prior);
        }
      } else {
        before = 0;
        this.partitionCount += 1;
      }
      this.seenPartitions.add(partition);
    }
    const pr = before + rho;
    this.partRho.set(partition, pr);
    if (pr > this.maxRho) this.maxRho = pr;
    let curve = this.partRdp.get(partition) ?? null;
    if (rdp !== null) {
      if (curve === null) {
        curve = new Float64Array(n);
        this.partRdp.set(partition, curve);
      }
      for (let i = 0; i < n; i++) curve[i]! += rdp[i]!;
      if (this.maxCurve === null) {
        // first subsampled release: start the per-order maximum from every partition's zCDP part,
        // the folded ones' included (their largest rho)
        this.maxCurve = new Float64Array(n);
        for (const r of this.folded === null
          ? this.partRho.values()
          : [this.folded.rho, ...this.partRho.values()]) {
          for (let i = 0; i < n; i++) this.maxCurve[i] = Math.max(this.maxCurve[i]!, this.orders[i]! * r);
        }
      }
    }
    if (this.maxCurve !== null) {
      for (let i = 0; i < n; i++) {
        const v = this.orders[i]! * pr + (curve === null ? 0 : curve[i]!);
        if (v > this.maxCurve[i]!) this.maxCurve[i] = v;
      }
    }
    // a fold is due at FOLD_AT partitions kept (so it is due at the same states after a restore)
    if (this.partRho.size >= FOLD_AT) this.fold();
  }

  /** True when `partition` is among the folded ones. */
  private foldedHas(partition: number): boolean {
    const f = this.folded;
    if (f === null) return false;
    const r = f.ranges;
    let lo = 0;
    let hi = r.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [a, b] = r[mid]!;
      if (partition < a) hi = mid - 1;
      else if (partition > b) lo = mid + 1;
      else return true;
    }
    return false;
  }

  /**
   * Folds every kept partition except the newest {@link FOLD_KEEP} into the summary: the maxima
   * (`maxRho`, `maxCurve`, and the exact figure through `worst`, `lower` and `mu2`) already count
   * them, so the guarantee does not change; the summary keeps what a later release on one of them
   * starts from (the largest rho, the largest curve, the join), and their ids.
   */
  private fold(): void {
    const ids = [...this.partRho.keys()].sort((a, b) => a - b);
    const f: FoldedPartitions = this.folded ?? {
      rho: 0,
      mu2: 0,
      ranges: [],
      full: null,
      worst: null,
      lower: 0,
      join: null,
    };
    const n = this.orders.length;
    for (const p of ids.slice(0, ids.length - FOLD_KEEP)) {
      const rho = this.partRho.get(p)!;
      const curve = this.partRdp.get(p) ?? null;
      if (curve !== null && f.full === null) {
        // the folded ones so far had no curve: their whole curves are orders x rho
        f.full = new Float64Array(n);
        for (let i = 0; i < n; i++) f.full[i] = this.orders[i]! * f.rho;
      }
      if (f.full !== null) {
        for (let i = 0; i < n; i++) {
          const v = this.orders[i]! * rho + (curve === null ? 0 : curve[i]!);
          if (v > f.full[i]!) f.full[i] = v;
        }
      }
      f.rho = Math.max(f.rho, rho);
      const c = this.exactParts.get(p);
      if (c !== undefined) {
        if (c.parts.size === 0) {
          f.mu2 = Math.max(f.mu2, c.mu2);
        } else {
          const r = this.exactOf(c);
          if (f.worst === null || r.epsilon > this.exactOf(f.worst).epsilon) {
            f.worst = copyComposition(c, emptyExactComposition());
          }
          f.lower = Math.max(f.lower, r.epsilonLower);
        }
        f.join = joinComposition(f.join ?? emptyExactComposition(), c);
      }
      addToRanges(f.ranges, p);
      this.partRho.delete(p);
      this.partRdp.delete(p);
      this.exactParts.delete(p);
      this.seenPartitions.delete(p);
    }
    this.folded = f;
  }

  /** The exact epsilon of composition `c` (cached by its signature). */
  private exactOf(c: ExactComposition): { epsilon: number; epsilonLower: number; method: string } {
    const sig = exactSignature(c);
    let r = this.exactCache.get(sig);
    if (r === undefined) {
      r = exactEpsilon(c, this.delta, this.noise === 'discrete');
      if (this.exactCache.size >= MAX_CURVE_CACHE) this.exactCache.clear();
      this.exactCache.set(sig, r);
    }
    return r;
  }

  private log(entry: MutableEntry): void {
    this.last = entry;
    if (this.head.length < this.logLimit) {
      this.head.push(entry);
      return;
    }
    if (this.tail.length < this.logLimit) {
      this.tail.push(entry);
      return;
    }
    this.tail[this.tailStart] = entry;
    this.tailStart = (this.tailStart + 1) % this.logLimit;
    this.droppedEntries += 1;
  }

  /** The guarantee spent so far (cached until the next `record`). */
  spent(): PrivacySpent {
    if (this.spentCache !== null) return this.spentCache;
    const base = {
      delta: this.delta,
      releases: this.releases,
      partitions: this.partitionCount,
    };
    let result: Omit<PrivacySpent, 'accountant' | 'method' | 'epsilonLower' | 'comparison'>;
    const zcdpName = this.conversion === 'classic' ? 'zcdp-classic' : 'zcdp-cks';
    const rdpName = this.conversion === 'classic' ? 'rdp-classic' : 'rdp-improved';
    if (this.releases === 0) {
      result = {
        ...base,
        rho: 0,
        epsilon: 0,
        composition: 'none',
        conversion: 'none',
        order: null,
        orderAtEdge: false,
      };
    } else if (this.composition === 'sequential') {
      if (this.seqRdp === null) {
        result = {
          ...base,
          rho: this.seqRho,
          epsilon: zcdpToEpsilonUnchecked(this.seqRho, this.delta, this.conversion),
          composition: 'sequential',
          conversion: zcdpName,
          order: null,
          orderAtEdge: false,
        };
      } else {
        const curve = this.scratch;
        for (let i = 0; i < curve.length; i++) curve[i] = this.orders[i]! * this.seqRho + this.seqRdp[i]!;
        const r = rdpToEpsilon(this.orders, curve, this.delta, this.conversion);
        result = {
          ...base,
          rho: null,
          epsilon: r.epsilon,
          composition: 'sequential',
          conversion: rdpName,
          order: r.order,
          orderAtEdge: r.edge,
        };
      }
    } else if (this.maxCurve === null) {
      result = {
        ...base,
        rho: this.maxRho,
        epsilon: zcdpToEpsilonUnchecked(this.maxRho, this.delta, this.conversion),
        composition: 'parallel',
        conversion: zcdpName,
        order: null,
        orderAtEdge: false,
      };
    } else {
      const r = rdpToEpsilon(this.orders, this.maxCurve, this.delta, this.conversion);
      result = {
        ...base,
        rho: null,
        epsilon: r.epsilon,
        composition: 'parallel',
        conversion: rdpName,
        order: r.order,
        orderAtEdge: r.edge,
      };
    }
    this.spentCache = Object.freeze(this.withAccountant(result));
    return this.spentCache;
  }

  /** Names the accountant of a zCDP/RDP result, or replaces it by the exact figure with the old one as comparison. */
  private withAccountant(
    legacy: Omit<PrivacySpent, 'accountant' | 'method' | 'epsilonLower' | 'comparison'>,
  ): PrivacySpent {
    const legacyName: 'zcdp' | 'rdp' = legacy.conversion.startsWith('rdp') ? 'rdp' : 'zcdp';
    if (this.accountant !== 'exact') {
      return {
        ...legacy,
        accountant: this.accountant ?? legacyName,
        method: legacy.conversion,
        epsilonLower: legacy.epsilon,
        comparison: null,
      };
    }
    if (this.releases === 0) {
      return { ...legacy, accountant: 'exact', method: 'none', epsilonLower: 0, comparison: null };
    }
    // parallel composition: epsilon(delta) is the maximum over partitions (each record is in one);
    // Gaussian-only partitions are ordered by mu^2, so only the largest of them is evaluated
    let epsilon = 0;
    let epsilonLower = 0;
    let method = 'none';
    let maxGaussian: ExactComposition | null = null;
    const seen = new Set<string>();
    const consider = (c: ExactComposition): void => {
      const sig = exactSignature(c);
      if (seen.has(sig)) return;
      seen.add(sig);
      const r = this.exactOf(c);
      if (r.epsilon > epsilon || method === 'none') {
        epsilon = r.epsilon;
        method = r.method;
      }
      epsilonLower = Math.max(epsilonLower, r.epsilonLower);
    };
    for (const c of this.exactParts.values()) {
      if (c.parts.size === 0) {
        if (maxGaussian === null || c.mu2 > maxGaussian.mu2) maxGaussian = c;
      } else {
        consider(c);
      }
    }
    // the folded partitions are Gaussian-only: the largest of them is their summary's mu^2
    if (this.folded !== null && (maxGaussian === null || this.folded.mu2 > maxGaussian.mu2)) {
      maxGaussian = emptyExactComposition();
      maxGaussian.mu2 = this.folded.mu2;
    }
    if (maxGaussian !== null) consider(maxGaussian);
    // the folded ones with subsampled releases: their largest epsilon, and their largest lower value
    if (this.folded?.worst != null) consider(this.folded.worst);
    if (this.folded !== null) epsilonLower = Math.max(epsilonLower, this.folded.lower);
    return {
      ...legacy,
      rho: legacy.rho,
      epsilon,
      accountant: 'exact',
      method,
      epsilonLower: Math.min(epsilonLower, epsilon),
      conversion: 'exact',
      order: null,
      orderAtEdge: false,
      comparison: { accountant: legacyName, epsilon: legacy.epsilon, rho: legacy.rho, order: legacy.order },
    };
  }

  /** The detailed log: the first `logLimit` and the last `logLimit` entries, in order. */
  entries(): readonly LedgerEntry[] {
    const tail = [...this.tail.slice(this.tailStart), ...this.tail.slice(0, this.tailStart)];
    return [...this.head, ...tail].map(publicEntry);
  }

  /** How many log entries were dropped between the head and the tail of the detailed log. */
  droppedEntryCount(): number {
    return this.droppedEntries;
  }

  /** A JSON-safe snapshot (for policy snapshots); restore with {@link PrivacyLedger.fromJSON}. */
  toJSON(): PrivacyLedgerJSON {
    const curveJson = (c: Float64Array | null) => (c === null ? null : Array.from(c, toJsonNumber));
    const tail = [...this.tail.slice(this.tailStart), ...this.tail.slice(0, this.tailStart)];
    const accountantFields =
      this.accountant === null
        ? {}
        : {
            accountant: this.accountant,
            noise: this.noise,
            ...(this.accountant === 'exact'
              ? {
                  exact: [...this.exactParts].map(([p, c]) => [p, ...compositionToJson(c)] as const),
                }
              : {}),
          };
    const f = this.folded;
    return {
      format: 'adaprivate.privacyLedger',
      // version 3: with folded partitions (older readers refuse it rather than lose them)
      version: f !== null ? 3 : this.accountant === null ? 1 : 2,
      ...accountantFields,
      ...(f === null ? {} : { folded: foldedToJson(f) }),
      delta: this.delta,
      composition: this.composition,
      conversion: this.conversion,
      orders: [...this.orders],
      logLimit: this.logLimit,
      releases: this.releases,
      rho: this.seqRho,
      rdp: curveJson(this.seqRdp),
      partitions: [...this.seenPartitions].map(
        (p) => [p, this.partRho.get(p) ?? 0, curveJson(this.partRdp.get(p) ?? null)] as const,
      ),
      partitionCount: this.partitionCount,
      head: this.head.map(publicEntry),
      tail: tail.map(publicEntry),
      droppedEntries: this.droppedEntries,
    };
  }

  /** Restores a ledger written by {@link PrivacyLedger.toJSON} (validated; throws RangeError when malformed). */
  static fromJSON(json: unknown): PrivacyLedger {
    const j = json as PrivacyLedgerJSON;
    if (
      typeof j !== 'object' ||
      j === null ||
      j.format !== 'adaprivate.privacyLedger' ||
      (j.version !== 1 && j.version !== 2 && j.version !== 3)
    ) {
      throw new RangeError(
        'PrivacyLedger.fromJSON: not a privacy ledger snapshot of version 1, 2 (which names its accountant) or 3 (with folded partitions).',
      );
    }
    if ((j.version === 3) !== (j.folded !== undefined)) {
      throw new RangeError(
        'PrivacyLedger.fromJSON: folded partitions are in version-3 snapshots, and only there.',
      );
    }
    if (j.version === 1 && (j.accountant !== undefined || j.exact !== undefined)) {
      throw new RangeError('PrivacyLedger.fromJSON: a version-1 snapshot has no accountant.');
    }
    if (j.version === 2 && j.accountant === undefined) {
      throw new RangeError('PrivacyLedger.fromJSON: a version-2 snapshot must name its accountant.');
    }
    const ledger = new PrivacyLedger({
      delta: j.delta,
      composition: j.composition,
      conversion: j.conversion,
      orders: j.orders,
      logLimit: j.logLimit,
      ...(j.accountant === undefined ? {} : { accountant: j.accountant }),
      ...(j.noise === undefined ? {} : { noise: j.noise }),
    });
    if (ledger.accountant === 'exact') {
      if (!Array.isArray(j.exact)) {
        throw new RangeError(
          'PrivacyLedger.fromJSON: an exact-accountant snapshot must have its exact state.',
        );
      }
      for (const entry of j.exact) {
        if (!Array.isArray(entry) || entry.length !== 3) {
          throw new RangeError('PrivacyLedger.fromJSON: exact entries must be [partition, mu2, parts].');
        }
        const [p, mu2, parts] = entry;
        if (
          !Number.isSafeInteger(p) ||
          p < 0 ||
          typeof mu2 !== 'number' ||
          !Number.isFinite(mu2) ||
          mu2 < 0
        ) {
          throw new RangeError(
            `PrivacyLedger.fromJSON: exact partition ${String(p)} has a bad mu2 ${String(mu2)}.`,
          );
        }
        if (!Array.isArray(parts))
          throw new RangeError('PrivacyLedger.fromJSON: exact parts must be an array.');
        const c = emptyExactComposition();
        c.mu2 = mu2;
        addPartsFromJson(c, parts, 'exact part');
        ledger.exactParts.set(p, c);
      }
    }
    const n = ledger.orders.length;
    const curve = (c: readonly (number | null)[] | null, where: string): Float64Array | null => {
      if (c === null) return null;
      if (!Array.isArray(c) || c.length !== n) {
        throw new RangeError(`PrivacyLedger.fromJSON: ${where} must have one value per order (${n}).`);
      }
      return Float64Array.from(c, fromJsonNumber);
    };
    const num = (v: unknown, where: string): number => {
      if (typeof v !== 'number' || !(v >= 0)) {
        throw new RangeError(`PrivacyLedger.fromJSON: ${where} must be a number >= 0. Got ${String(v)}.`);
      }
      return v;
    };
    ledger.releases = num(j.releases, 'releases');
    ledger.seqRho = num(j.rho, 'rho');
    ledger.seqRdp = curve(j.rdp, 'rdp');
    if (!Array.isArray(j.partitions))
      throw new RangeError('PrivacyLedger.fromJSON: partitions must be an array.');
    for (const [p, rho, c] of j.partitions) {
      num(p, 'partition');
      ledger.seenPartitions.add(p);
      ledger.partRho.set(p, num(rho, 'partition rho'));
      const cc = curve(c, `partition ${p} rdp`);
      if (cc !== null) ledger.partRdp.set(p, cc);
    }
    ledger.partitionCount = num(j.partitionCount, 'partitionCount');
    if (j.folded !== undefined) {
      if (ledger.composition !== 'parallel') {
        throw new RangeError('PrivacyLedger.fromJSON: only a parallel ledger folds partitions.');
      }
      const f = foldedFromJson(j.folded, ledger.orders);
      ledger.folded = f;
      let count = ledger.seenPartitions.size;
      for (const [a, b] of f.ranges) count += b - a + 1;
      for (const p of ledger.seenPartitions) {
        if (ledger.foldedHas(p)) {
          throw new RangeError(`PrivacyLedger.fromJSON: partition ${p} is both folded and kept apart.`);
        }
      }
      if (count !== ledger.partitionCount) {
        throw new RangeError(
          `PrivacyLedger.fromJSON: ${count} partitions (kept apart and folded), but partitionCount is ${ledger.partitionCount}.`,
        );
      }
    }
    // recompute the maxima (the folded partitions' largest rho among them)
    const foldedRho = ledger.folded?.rho ?? 0;
    ledger.maxRho = foldedRho;
    for (const r of ledger.partRho.values()) ledger.maxRho = Math.max(ledger.maxRho, r);
    if (ledger.partRdp.size > 0 || (ledger.folded?.full ?? null) !== null) {
      const m = new Float64Array(n);
      const full = ledger.folded?.full ?? null;
      for (let i = 0; i < n; i++) m[i] = full === null ? ledger.orders[i]! * foldedRho : full[i]!;
      for (const p of ledger.seenPartitions) {
        const r = ledger.partRho.get(p) ?? 0;
        const c = ledger.partRdp.get(p);
        for (let i = 0; i < n; i++)
          m[i] = Math.max(m[i]!, ledger.orders[i]! * r + (c === undefined ? 0 : c[i]!));
      }
      ledger.maxCurve = m;
    }
    const restore = (e: LedgerEntry): MutableEntry => {
      assertPrivacyEvent(e.event, 'PrivacyLedger.fromJSON: entry event');
      return { ...e, key: null };
    };
    if (!Array.isArray(j.head) || !Array.isArray(j.tail)) {
      throw new RangeError('PrivacyLedger.fromJSON: head and tail must be arrays.');
    }
    for (const e of j.head) ledger.head.push(restore(e));
    for (const e of j.tail) ledger.tail.push(restore(e));
    ledger.droppedEntries = num(j.droppedEntries, 'droppedEntries');
    ledger.last = ledger.tail.at(-1) ?? ledger.head.at(-1) ?? null;
    return ledger;
  }
}

function eventCostRho(event: PrivacyEvent): number {
  // zCDP-expressible events: exact rho, no grid
  switch (event.kind) {
    case 'gaussian':
      return (event.sensitivity * event.sensitivity) / (2 * event.sigma * event.sigma);
    case 'zcdp':
      return event.rho;
    default:
      return eventCost(event, []).rho;
  }
}

function releaseCount(event: PrivacyEvent): number {
  switch (event.kind) {
    case 'selfComposed':
      return event.count * releaseCount(event.event);
    case 'composed':
    case 'parallel': {
      let s = 0;
      for (const e of event.events) s += releaseCount(e);
      return s;
    }
    default:
      return 1;
  }
}

function publicEntry(e: MutableEntry | LedgerEntry): LedgerEntry {
  return {
    label: e.label,
    kind: e.kind,
    event: e.event,
    round: e.round,
    lastRound: e.lastRound,
    partition: e.partition,
    lastPartition: e.lastPartition,
    count: e.count,
    sensitivity: e.sensitivity,
    sigma: e.sigma,
    q: e.q,
    rho: e.rho,
  };
}
