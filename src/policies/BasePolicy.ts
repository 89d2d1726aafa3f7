/**
 * What every policy shares: input validation, feature clipping (counted), the pending-round table
 * for plain and delayed (ticketed) feedback, the two seeded streams, the privacy ledger, the horizon
 * guard, side-effect-free scoring and the snapshot envelope. Subclasses implement only `choose`,
 * `scoreArms`, `learn`, `release`-type internals and their own state (Thompson-sampling policies
 * also `countWins`).
 *
 * Rounds and statistics: `select` only chooses; the chosen arm's (clipped) features wait in a pending
 * slot until `update` brings its reward, or `discard` abandons the round (Li et al. replay discards
 * rounds where the policy's arm differs from the logged one): nothing of a discarded round enters
 * any statistic or counter except `clippedCount`. A second `select` while one is pending is refused
 * (overlapping rounds use `selectTicket`). `observe` learns from a round chosen elsewhere through
 * the same `learn` path as `update`.
 *
 * Scoring costs no privacy: `scores` and `probabilities` read only what was already released (the
 * noisy statistics, the public design matrix built from public features) and the caller's features,
 * so their output is post-processing of released data; they draw nothing from the exploration or
 * noise streams and leave the ledger and the snapshot unchanged.
 */
import type { Rng, RngState } from '../random/index.js';
import { createRng } from '../random/index.js';
import { argmaxFirst } from './argmaxFirst.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import { HorizonExceededError } from './HorizonExceededError.js';
import type {
  ArmProbabilities,
  Policy,
  PolicyId,
  PolicyPrivacy,
  PolicySnapshot,
  ProbabilityOptions,
  SelectionWithPropensity,
} from './Policy.js';
import type { PolicyConfig } from './PolicyOptions.js';
import { policyInfo } from './policyInfo.js';
import { type LedgerLike, NON_PRIVATE_SPENT } from './privacyAdapter.js';

/**
 * Vectors whose squared norm exceeds 1 by at most this are rescaled but not counted as clipped
 * (a normalised vector can come out at 1 + 2^-52 by rounding).
 */
const CLIP_COUNT_TOLERANCE = 1e-12;

/** Version of the snapshot layout written by {@link BasePolicy.snapshot}. */
export const SNAPSHOT_VERSION = 1;

/** Default Monte Carlo draws of `probabilities` for Thompson-sampling policies. */
export const DEFAULT_PROBABILITY_SAMPLES = 2000;
const MAX_PROBABILITY_SAMPLES = 10_000_000;

/**
 * Copies d values src[so ..) to dst[doff ..) and rescales them to unit norm when their norm exceeds
 * 1. Returns the squared norm before clipping (not finite when a value is not finite). Cost 2d.
 */
function copyClip(src: Float64Array, so: number, dst: Float64Array, doff: number, d: number): number {
  let n2 = 0;
  for (let i = 0; i < d; i++) {
    const v = src[so + i]!;
    dst[doff + i] = v;
    n2 += v * v;
  }
  if (n2 > 1 && n2 < Number.POSITIVE_INFINITY) {
    const s = 1 / Math.sqrt(n2);
    for (let i = 0; i < d; i++) dst[doff + i] = dst[doff + i]! * s;
  }
  return n2;
}

interface BaseState {
  readonly config: string;
  readonly clipped: number;
  readonly rounds: number;
  readonly nextTicket: number;
  readonly finished: boolean;
  readonly pendingTicket: string;
  readonly pending: string;
  readonly rng: RngState;
  readonly noiseRng: RngState;
  readonly ledger: unknown;
}

export abstract class BasePolicy implements Policy {
  readonly id: PolicyId;
  readonly config: PolicyConfig;
  /** The display name used in messages, e.g. 'AdaPrivate-TS'. */
  protected readonly name: string;
  /** Feature dimension d. */
  protected readonly d: number;
  /** Planned horizon T. */
  protected readonly horizon: number;
  /** True when rounds beyond `horizon` are refused (see `PolicyInfo.boundedByHorizon`). */
  private readonly boundedByHorizon: boolean;
  /** The exploration seed (also keys the scratch generator of `probabilities`). */
  private readonly seed: number;
  /** Exploration randomness (TS samples): stream 'policy'. */
  protected readonly rng: Rng;
  /** Mechanism randomness (release noise, subsampling): stream 'privacy-noise'. */
  protected readonly noiseRng: Rng;
  /** The ledger of releases (null for non-private policies). */
  protected ledger: LedgerLike | null;
  /** Number of completed rounds (updates), t. */
  protected rounds = 0;
  /** The candidate features of the current `select`, clipped, K x d row-major. */
  protected feats: Float64Array;
  /** feats[a*d .. (a+1)*d) as views, one per arm (created only when K grows). */
  protected armViews: Float64Array[] = [];
  /** Scratch of k scores for `choose` (grown with `feats`; not state). */
  protected scoreBuf: Float64Array = new Float64Array(0);
  private clipped = 0;
  private finished = false;
  private nextTicket = 0;
  private readonly maxPending: number;
  /** Slot 0: the plain `select`; slots 1..maxPending: tickets. */
  private readonly pending: Float64Array;
  /** Ticket number held by each slot, -1 when empty (slot 0: 0 when occupied). */
  private readonly pendingTicket: Float64Array;
  private readonly xObs: Float64Array;

  protected constructor(id: PolicyId, config: PolicyConfig, ledger: LedgerLike | null) {
    this.id = id;
    this.config = config;
    const info = policyInfo(id);
    this.name = info.displayName;
    this.boundedByHorizon = info.boundedByHorizon;
    this.d = config.dim as number;
    this.horizon = config.horizon as number;
    const seed = config.seed as number;
    this.seed = seed;
    this.rng = createRng(seed, 'policy');
    this.noiseRng = createRng(seed, 'privacy-noise');
    this.ledger = ledger;
    this.maxPending = config.maxPending as number;
    this.pending = new Float64Array((this.maxPending + 1) * this.d);
    this.pendingTicket = new Float64Array(this.maxPending + 1).fill(-1);
    this.xObs = new Float64Array(this.d);
    this.feats = new Float64Array(0);
  }

  get clippedCount(): number {
    return this.clipped;
  }

  get roundsLearned(): number {
    return this.rounds;
  }

  /** Chooses an arm among `k` candidates held in `this.feats` / `this.armViews`. */
  protected abstract choose(k: number): number;
  /**
   * Writes the score of each of the `k` candidates in `this.feats` to out[0 .. k) from released
   * statistics only: the estimate's expected reward, plus the width for UCB-type policies (then the
   * arm `choose` picks is the first maximum). Must not change any state nor draw from any stream.
   */
  protected abstract scoreArms(k: number, out: Float64Array): void;

  /**
   * Randomised policies: adds to counts[a] how often arm a wins in `samples` draws of the policy's
   * randomisation from `rng` (never the exploration stream) and returns true. Deterministic ones
   * return false (the default): `probabilities` is then exact from `scoreArms`.
   */
  protected countWins(_k: number, _samples: number, _rng: Rng, _counts: Float64Array): boolean {
    return false;
  }
  /** Adds the completed round (features `x`, length d; reward in [0, 1]) to the statistics. */
  protected abstract learn(x: Float64Array, reward: number): void;
  /** Releases whatever is pending at the end of the run (partial batch). Called once. */
  protected abstract onFinish(): void;
  /** The subclass's own state as JSON-safe data. */
  protected abstract saveOwnState(): unknown;
  /** Restores `saveOwnState` output. */
  protected abstract loadOwnState(state: unknown): void;

  select(features: Float64Array, k: number): number {
    if (this.pendingTicket[0]! >= 0) {
      throw new Error(
        `${this.name}: select called again before update or discard of the previous select (each select takes one update or discard; use selectTicket for overlapping rounds).`,
      );
    }
    this.guardHorizon(1, 'select');
    this.prepare(features, k, true);
    const arm = this.choose(k);
    this.keep(0, arm);
    this.pendingTicket[0] = 0;
    return arm;
  }

  selectWithPropensity(
    features: Float64Array,
    k: number,
    options?: ProbabilityOptions,
  ): SelectionWithPropensity {
    const samples = this.samplesOption(options);
    const arm = this.select(features, k);
    const probabilities = this.armProbabilities(k, samples, arm);
    const propensity = probabilities.probabilities[arm]!;
    if (!(propensity > 0)) {
      throw new Error(`${this.name}: internal error, the chosen arm ${arm} has probability ${propensity}.`);
    }
    return Object.freeze({ arm, propensity, probabilities });
  }

  update(reward: number): void {
    this.checkReward(reward);
    if (this.pendingTicket[0]! < 0) {
      throw new Error(`${this.name}: update called without a pending select (each select takes one update).`);
    }
    this.guardHorizon(1, 'update');
    this.pendingTicket[0] = -1;
    this.complete(0, reward);
  }

  discard(): void {
    if (this.pendingTicket[0]! < 0) {
      throw new Error(`${this.name}: discard called without a pending select.`);
    }
    this.pendingTicket[0] = -1;
  }

  scores(features: Float64Array, k: number): Float64Array {
    this.prepare(features, k, false);
    const out = new Float64Array(k);
    this.scoreArms(k, out);
    return out;
  }

  probabilities(features: Float64Array, k: number, options?: ProbabilityOptions): ArmProbabilities {
    const samples = this.samplesOption(options);
    this.prepare(features, k, false);
    return this.armProbabilities(k, samples, -1);
  }

  observe(features: Float64Array, reward: number): void {
    this.checkReward(reward);
    const d = this.d;
    if (!(features instanceof Float64Array) || features.length !== d) {
      throw new RangeError(
        `${this.name}: observe needs the features of the chosen arm, a Float64Array of d = ${d} values. Got ${describeArray(features)}.`,
      );
    }
    this.guardHorizon(1, 'observe');
    this.clipRow(features, 0, this.xObs, 0, 'observe: features', -1);
    this.rounds++;
    this.learn(this.xObs, reward);
  }

  observeMany(features: Float64Array, rewards: ArrayLike<number>): void {
    if (this.finished) throw new Error(`${this.name}: the run is finished; no more rounds.`);
    const d = this.d;
    const n = rewards?.length;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
      throw new TypeError(
        `${this.name}: observeMany needs rewards as an array of numbers. Got ${String(rewards)}.`,
      );
    }
    if (!(features instanceof Float64Array) || features.length !== n * d) {
      throw new RangeError(
        `${this.name}: observeMany needs features as a Float64Array of n x d = ${n} x ${d} = ${n * d} values (one row per reward). Got ${describeArray(features)}.`,
      );
    }
    for (let r = 0; r < n; r++) {
      const reward = rewards[r]!;
      if (typeof reward !== 'number' || !(reward >= 0 && reward <= 1)) {
        throw new RangeError(
          `${this.name}: rewards must be finite numbers in [0, 1]. Got ${reward} at row ${r}.`,
        );
      }
      let n2 = 0;
      for (let i = 0; i < d; i++) n2 += features[r * d + i]! ** 2;
      if (!(n2 < Number.POSITIVE_INFINITY)) {
        this.checkFinite(features, r * d, 'row', r);
        throw new RangeError(
          `${this.name}: the squared norm of row ${r} overflows (${n2}); rescale the features.`,
        );
      }
    }
    this.guardHorizon(n, `observeMany of ${n} rounds`);
    for (let r = 0; r < n; r++) {
      this.clipRow(features, r * d, this.xObs, 0, 'observeMany: features', r);
      this.rounds++;
      this.learn(this.xObs, rewards[r]!);
    }
  }

  selectTicket(features: Float64Array, k: number): { readonly arm: number; readonly ticket: number } {
    this.guardHorizon(1, 'selectTicket');
    this.prepare(features, k, true);
    const arm = this.choose(k);
    const ticket = this.nextTicket++;
    const slot = 1 + (ticket % this.maxPending);
    this.keep(slot, arm);
    this.pendingTicket[slot] = ticket;
    return { arm, ticket };
  }

  updateTicket(ticket: number, reward: number): void {
    if (!Number.isSafeInteger(ticket) || ticket < 0) {
      throw new RangeError(
        `${this.name}: ticket must be a non-negative integer from selectTicket. Got ${ticket}.`,
      );
    }
    this.checkReward(reward);
    const slot = 1 + (ticket % this.maxPending);
    if (this.pendingTicket[slot] !== ticket) {
      throw new RangeError(
        `${this.name}: ticket ${ticket} is unknown, already updated or expired (at most maxPending = ${this.maxPending} tickets wait at once).`,
      );
    }
    this.guardHorizon(1, 'updateTicket');
    this.pendingTicket[slot] = -1;
    this.complete(slot, reward);
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.onFinish();
  }

  privacy(): PolicyPrivacy {
    const spent = this.ledger === null ? NON_PRIVATE_SPENT : this.ledger.spent();
    if (this.rounds <= this.horizon) return spent;
    const note =
      this.ledger === null
        ? `learned ${this.rounds} rounds, beyond the planned horizon ${this.horizon}; non-private, so there is no guarantee to lose, but horizon-based tuning no longer applies.`
        : `learned ${this.rounds} rounds, beyond the planned horizon ${this.horizon}; the guarantee above still holds (each reward enters exactly one release: parallel composition, independent of T), but horizon-based regret bounds do not.`;
    return Object.freeze({
      ...spent,
      beyondHorizon: Object.freeze({ rounds: this.rounds, horizon: this.horizon, note }),
    });
  }

  snapshot(): PolicySnapshot {
    const base: BaseState = {
      config: JSON.stringify(this.config),
      clipped: this.clipped,
      rounds: this.rounds,
      nextTicket: this.nextTicket,
      finished: this.finished,
      pendingTicket: encodeFloat64(this.pendingTicket),
      pending: encodeFloat64(this.pending),
      rng: this.rng.saveState(),
      noiseRng: this.noiseRng.saveState(),
      ledger: this.ledger === null ? null : this.ledger.toJSON(),
    };
    return { id: this.id, version: SNAPSHOT_VERSION, state: { base, own: this.saveOwnState() } };
  }

  restore(snapshot: PolicySnapshot): void {
    if (typeof snapshot !== 'object' || snapshot === null) {
      throw new TypeError(`${this.name}: restore needs a snapshot object.`);
    }
    if (snapshot.id !== this.id) {
      throw new RangeError(
        `${this.name}: cannot restore a snapshot of policy '${snapshot.id}' into '${this.id}'.`,
      );
    }
    if (snapshot.version !== SNAPSHOT_VERSION) {
      throw new RangeError(
        `${this.name}: snapshot version must be ${SNAPSHOT_VERSION}. Got ${snapshot.version}.`,
      );
    }
    const st = snapshot.state as { base?: BaseState; own?: unknown } | null;
    const base = st?.base;
    if (base === undefined || base === null) throw new TypeError(`${this.name}: snapshot has no base state.`);
    if (base.config !== JSON.stringify(this.config)) {
      throw new RangeError(
        `${this.name}: snapshot was taken with a different configuration: ${base.config}.`,
      );
    }
    this.loadOwnState(st?.own);
    decodeFloat64(base.pendingTicket, this.pendingTicket, 'pendingTicket');
    decodeFloat64(base.pending, this.pending, 'pending');
    this.clipped = base.clipped;
    this.rounds = base.rounds;
    this.nextTicket = base.nextTicket;
    this.finished = base.finished;
    this.rng.restoreState(base.rng);
    this.noiseRng.restoreState(base.noiseRng);
    if (this.ledger !== null) this.ledger = this.ledger.restoreFrom(base.ledger);
  }

  /**
   * Validates, copies and clips the candidates into `this.feats`; `count` says whether clipped
   * vectors are added to `clippedCount` (rounds do; scoring leaves every counter unchanged).
   */
  private prepare(features: Float64Array, k: number, count: boolean): void {
    if (this.finished && count) throw new Error(`${this.name}: the run is finished; no more rounds.`);
    const d = this.d;
    if (!Number.isSafeInteger(k) || k <= 0) {
      throw new RangeError(`${this.name}: k (number of arms) must be a positive integer. Got ${k}.`);
    }
    if (!(features instanceof Float64Array) || features.length !== k * d) {
      throw new RangeError(
        `${this.name}: features must be a Float64Array of exactly k x d = ${k} x ${d} = ${k * d} values. Got ${describeArray(features)}.`,
      );
    }
    if (this.armViews.length < k) this.grow(k);
    const f = this.feats;
    for (let a = 0; a < k; a++) {
      const o = a * d;
      const n2 = copyClip(features, o, f, o, d);
      if (!(n2 < Number.POSITIVE_INFINITY)) {
        this.checkFinite(features, o, 'arm', a);
        throw new RangeError(
          `${this.name}: the squared norm of arm ${a}'s features overflows (${n2}); rescale the features.`,
        );
      }
      // rescaled always; counted only when the excess is more than rounding of a unit vector
      if (count && n2 > 1 + CLIP_COUNT_TOLERANCE) this.clipped++;
    }
  }

  /** Copies and clips one row (counted), for `observe`; `row` < 0 for a single vector. */
  private clipRow(
    src: Float64Array,
    so: number,
    dst: Float64Array,
    doff: number,
    what: string,
    row: number,
  ): void {
    const n2 = copyClip(src, so, dst, doff, this.d);
    if (!(n2 < Number.POSITIVE_INFINITY)) {
      this.checkFinite(src, so, row < 0 ? '' : 'row', row);
      throw new RangeError(
        `${this.name}: ${what} has a squared norm that overflows (${n2}); rescale the features.`,
      );
    }
    if (n2 > 1 + CLIP_COUNT_TOLERANCE) this.clipped++;
  }

  /** Throws naming the first non-finite value of src[o .. o + d). */
  private checkFinite(src: Float64Array, o: number, unit: string, index: number): void {
    for (let i = 0; i < this.d; i++) {
      const v = src[o + i]!;
      if (!Number.isFinite(v)) {
        const where = unit === '' ? `coordinate ${i}` : `${unit} ${index}, coordinate ${i}`;
        throw new RangeError(`${this.name}: features must be finite. Got ${v} at ${where}.`);
      }
    }
  }

  /** Refuses `what` when it would take a horizon-bound policy beyond T learned rounds. */
  private guardHorizon(extra: number, what: string): void {
    if (this.boundedByHorizon && this.rounds + extra > this.horizon) {
      throw new HorizonExceededError(this.name, this.horizon, this.rounds, what);
    }
  }

  private samplesOption(options: ProbabilityOptions | undefined): number {
    if (options === undefined) return DEFAULT_PROBABILITY_SAMPLES;
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(
        `${this.name}: probability options must be an object such as { samples: 2000 }. Got ${String(options)}.`,
      );
    }
    const n = options.samples;
    if (n === undefined) return DEFAULT_PROBABILITY_SAMPLES;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0 || n > MAX_PROBABILITY_SAMPLES) {
      throw new RangeError(
        `${this.name}: samples must be a positive integer <= ${MAX_PROBABILITY_SAMPLES}. Got ${String(n)}.`,
      );
    }
    return n;
  }

  /**
   * Probabilities of the k candidates in `this.feats`. Randomised policies: Monte Carlo from a scratch
   * generator keyed by (seed, rounds learned), so the same state gives the same estimate and no
   * stream of the policy moves; `chosen` >= 0 counts `select`'s own draw (that arm) as one more sample.
   */
  private armProbabilities(k: number, samples: number, chosen: number): ArmProbabilities {
    const counts = new Float64Array(k);
    const rng = createRng(this.seed, `probabilities:${this.rounds}`);
    if (this.countWins(k, samples, rng, counts)) {
      let n = samples;
      if (chosen >= 0) {
        counts[chosen] = counts[chosen]! + 1;
        n++;
      }
      const p = new Float64Array(k);
      const se = new Float64Array(k);
      for (let a = 0; a < k; a++) {
        const pa = counts[a]! / n;
        p[a] = pa;
        se[a] = Math.sqrt((pa * (1 - pa)) / n);
      }
      return Object.freeze({ probabilities: p, standardErrors: se, samples: n });
    }
    const sc = new Float64Array(k);
    this.scoreArms(k, sc);
    const p = new Float64Array(k);
    p[argmaxFirst(sc, k)] = 1;
    return Object.freeze({ probabilities: p, standardErrors: null, samples: 0 });
  }

  private grow(k: number): void {
    const d = this.d;
    this.feats = new Float64Array(k * d);
    const views: Float64Array[] = [];
    for (let a = 0; a < k; a++) views.push(this.feats.subarray(a * d, (a + 1) * d));
    this.armViews = views;
    this.scoreBuf = new Float64Array(k);
  }

  private keep(slot: number, arm: number): void {
    const d = this.d;
    const src = arm * d;
    const dst = slot * d;
    for (let i = 0; i < d; i++) this.pending[dst + i] = this.feats[src + i]!;
  }

  private complete(slot: number, reward: number): void {
    const d = this.d;
    const src = slot * d;
    for (let i = 0; i < d; i++) this.xObs[i] = this.pending[src + i]!;
    this.rounds++;
    this.learn(this.xObs, reward);
  }

  private checkReward(reward: number): void {
    if (this.finished) throw new Error(`${this.name}: the run is finished; no more rounds.`);
    if (typeof reward !== 'number' || !(reward >= 0 && reward <= 1)) {
      throw new RangeError(`${this.name}: reward must be a finite number in [0, 1]. Got ${reward}.`);
    }
  }
}

function describeArray(x: unknown): string {
  if (x instanceof Float64Array) return `a Float64Array of length ${x.length}`;
  if (ArrayBuffer.isView(x)) return `a ${x.constructor.name} (convert it to a Float64Array)`;
  if (Array.isArray(x)) return `an array of length ${x.length} (convert it with Float64Array.from)`;
  return String(x);
}
