/**
 * What every policy shares: input validation, feature clipping (counted), the pending-round table
 * for plain and delayed (ticketed) feedback, the two seeded streams, the privacy ledger and the
 * snapshot envelope. Subclasses implement only `choose`, `learn`, `release`-type internals and their
 * own state.
 *
 * Rounds and statistics: `select` only chooses; the chosen arm's (clipped) features wait in a pending
 * slot until `update` brings its reward. A `select` that is never followed by `update` (Li et al.
 * replay discards rounds where the policy's arm differs from the logged one) is simply replaced by
 * the next `select`: nothing of a discarded round enters any statistic or counter except
 * `clippedCount`.
 */
import type { PrivacySpent } from '../privacy/ledger.js';
import type { Rng, RngState } from '../random/index.js';
import { createRng, SecureRng } from '../random/index.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import type { Policy, PolicyId, PolicySnapshot } from './Policy.js';
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

interface BaseState {
  readonly config: string;
  readonly clipped: number;
  readonly rounds: number;
  readonly nextTicket: number;
  readonly finished: boolean;
  readonly pendingTicket: string;
  readonly pending: string;
  readonly rng: RngState;
  /** The seeded noise stream's state (research mode); null for secure noise, which has no state. */
  readonly noiseRng: RngState | null;
  readonly ledger: unknown;
  /** Releases of the lineage made with seeded noise (0 for secure-only lineages). */
  readonly seededReleases: number;
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
  /** Exploration randomness (TS samples): stream 'policy'. */
  protected readonly rng: Rng;
  /**
   * Mechanism randomness (release noise, subsampling): the secure source, or in research mode
   * `createRng(noiseSeed, 'privacy-noise')`.
   */
  protected noiseRng: Rng;
  /** Where the noise comes from: 'seeded' (research mode, `noiseSeed` given) or 'secure'. */
  protected readonly noiseKind: 'secure' | 'seeded';
  /** The ledger of releases (null for non-private policies). */
  protected ledger: LedgerLike | null;
  /** Number of completed rounds (updates), t. */
  protected rounds = 0;
  /** The candidate features of the current `select`, clipped, K x d row-major. */
  protected feats: Float64Array;
  /** feats[a*d .. (a+1)*d) as views, one per arm (created only when K grows). */
  protected armViews: Float64Array[] = [];
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
    this.name = policyInfo(id).displayName;
    this.d = config.dim as number;
    this.horizon = config.horizon as number;
    const seed = config.seed as number;
    this.rng = createRng(seed, 'policy');
    const noiseSeed = config.noiseSeed;
    this.noiseKind = typeof noiseSeed === 'number' ? 'seeded' : 'secure';
    this.noiseRng = typeof noiseSeed === 'number' ? createRng(noiseSeed, 'privacy-noise') : new SecureRng();
    this.ledger = ledger;
    ledger?.setNoise(this.noiseKind);
    this.maxPending = config.maxPending as number;
    this.pending = new Float64Array((this.maxPending + 1) * this.d);
    this.pendingTicket = new Float64Array(this.maxPending + 1).fill(-1);
    this.xObs = new Float64Array(this.d);
    this.feats = new Float64Array(0);
  }

  get clippedCount(): number {
    return this.clipped;
  }

  /** Chooses an arm among `k` candidates held in `this.feats` / `this.armViews`. */
  protected abstract choose(k: number): number;
  /** Adds the completed round (features `x`, length d; reward in [0, 1]) to the statistics. */
  protected abstract learn(x: Float64Array, reward: number): void;
  /** Releases whatever is pending at the end of the run (partial batch). Called once. */
  protected abstract onFinish(): void;
  /** The subclass's own state as JSON-safe data. */
  protected abstract saveOwnState(): unknown;
  /** Restores `saveOwnState` output. */
  protected abstract loadOwnState(state: unknown): void;

  select(features: Float64Array, k: number): number {
    const arm = this.prepareAndChoose(features, k);
    this.keep(0, arm);
    this.pendingTicket[0] = 0;
    return arm;
  }

  update(reward: number): void {
    this.checkReward(reward);
    if (this.pendingTicket[0]! < 0) {
      throw new Error(`${this.name}: update called without a pending select (each select takes one update).`);
    }
    this.pendingTicket[0] = -1;
    this.complete(0, reward);
  }

  selectTicket(features: Float64Array, k: number): { readonly arm: number; readonly ticket: number } {
    const arm = this.prepareAndChoose(features, k);
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
    this.pendingTicket[slot] = -1;
    this.complete(slot, reward);
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.onFinish();
  }

  privacy(): PrivacySpent {
    return this.ledger === null ? NON_PRIVATE_SPENT : this.ledger.spent();
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
      noiseRng: this.noiseKind === 'seeded' ? this.noiseRng.saveState() : null,
      ledger: this.ledger === null ? null : this.ledger.toJSON(),
      seededReleases: this.ledger === null ? 0 : this.ledger.seededReleases,
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
    if (this.noiseKind === 'seeded') {
      if (base.noiseRng === null) throw new RangeError(`${this.name}: snapshot has no seeded noise state.`);
      this.noiseRng.restoreState(base.noiseRng);
    }
    if (this.ledger !== null) this.ledger = this.ledger.restoreFrom(base.ledger, base.seededReleases);
  }

  /** Validates, copies and clips the candidates, then lets the subclass choose. */
  private prepareAndChoose(features: Float64Array, k: number): number {
    if (this.finished) throw new Error(`${this.name}: the run is finished; no more rounds.`);
    const d = this.d;
    if (!Number.isSafeInteger(k) || k <= 0) {
      throw new RangeError(`${this.name}: k (number of arms) must be a positive integer. Got ${k}.`);
    }
    if (!(features instanceof Float64Array) || features.length < k * d) {
      throw new RangeError(
        `${this.name}: features must be a Float64Array of k x d = ${k * d} values. Got ${
          features instanceof Float64Array ? `length ${features.length}` : String(features)
        }.`,
      );
    }
    if (this.armViews.length < k) this.grow(k);
    const f = this.feats;
    for (let a = 0; a < k; a++) {
      const o = a * d;
      let n2 = 0;
      for (let i = 0; i < d; i++) {
        const v = features[o + i]!;
        if (!Number.isFinite(v)) {
          throw new RangeError(
            `${this.name}: features must be finite. Got ${v} at arm ${a}, coordinate ${i}.`,
          );
        }
        f[o + i] = v;
        n2 += v * v;
      }
      if (n2 > 1) {
        const s = 1 / Math.sqrt(n2);
        for (let i = 0; i < d; i++) f[o + i] = f[o + i]! * s;
        // rescaled always; counted only when the excess is more than rounding of a unit vector
        if (n2 > 1 + CLIP_COUNT_TOLERANCE) this.clipped++;
      }
    }
    const arm = this.choose(k);
    return arm;
  }

  private grow(k: number): void {
    const d = this.d;
    this.feats = new Float64Array(k * d);
    const views: Float64Array[] = [];
    for (let a = 0; a < k; a++) views.push(this.feats.subarray(a * d, (a + 1) * d));
    this.armViews = views;
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
