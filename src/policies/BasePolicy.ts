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
import type { PrivacyEvent } from '../privacy/events.js';
import type { PrivacySpent } from '../privacy/ledger.js';
import type { Rng, RngState } from '../random/index.js';
import { createRng, SecureRng } from '../random/index.js';
import { VERSION } from '../version.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import type { Policy, PolicyId, PolicySnapshot, RestoreOptions } from './Policy.js';
import type { PolicyConfig } from './PolicyOptions.js';
import { policyInfo } from './policyInfo.js';
import { type LedgerLike, NON_PRIVATE_SPENT } from './privacyAdapter.js';
import { snapshotChecksum } from './snapshotChecksum.js';

/**
 * Vectors whose squared norm exceeds 1 by at most this are rescaled but not counted as clipped
 * (a normalised vector can come out at 1 + 2^-52 by rounding).
 */
const CLIP_COUNT_TOLERANCE = 1e-12;

/** Version of the snapshot layout written by {@link BasePolicy.snapshot}. */
export const SNAPSHOT_VERSION = 2;
/** The `format` tag of a policy snapshot. */
export const SNAPSHOT_FORMAT = 'adaprivate.policySnapshot';
const ID_PATTERN = /^[0-9a-f]{16}$/;

/** Two numbers (or nulls) equal to a relative 1e-9 (the ledger sums in a different order). */
function sameNumber(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  if (a === b) return true;
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

/** A random 64-bit id as 16 hex digits, from the secure source. */
function randomId(): string {
  const w = new Uint32Array(2);
  globalThis.crypto.getRandomValues(w);
  return w[0]!.toString(16).padStart(8, '0') + w[1]!.toString(16).padStart(8, '0');
}

interface BaseState {
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
  /** Random id of the lineage (adopted from a snapshot on restore) and of this object. */
  private lineage = randomId();
  private readonly instance = randomId();
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

  /** True once `finish()` ran. */
  protected get isFinished(): boolean {
    return this.finished;
  }

  /** Reads a non-negative integer field of a subclass's saved state (restore), naming it on error. */
  protected readCount(state: Record<string, unknown>, key: string): number {
    const v = state[key];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      throw new RangeError(
        `${this.name}: snapshot field 'state.own.${key}' must be a non-negative integer. Got ${String(v)}.`,
      );
    }
    return v;
  }

  /**
   * For `checkReleases`: null when the design matrix `factor` (lambda I + sum x x^T of unit-norm x)
   * can come from `rounds` rounds, i.e. trace(A) - d lambda <= rounds; else the reason.
   */
  protected traceReason(trace: number, lambda: number, rounds: number): string | null {
    const excess = trace - this.d * lambda;
    if (excess > rounds * (1 + 1e-9) + 1e-9) {
      return `the design matrix holds ${excess.toFixed(3)} units of data but rounds is ${rounds}`;
    }
    return null;
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
    const content = {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      library: VERSION,
      id: this.id,
      config: this.config,
      lineage: this.lineage,
      instance: this.instance,
      state: { base, own: this.saveOwnState() },
    };
    return { ...content, checksum: snapshotChecksum(content) };
  }

  save(): string {
    return JSON.stringify(this.snapshot());
  }

  restore(snapshot: PolicySnapshot, options: RestoreOptions = {}): void {
    const st = this.checkEnvelope(snapshot);
    const ledgerBefore = this.ledger;
    const releasesBefore = ledgerBefore === null ? 0 : ledgerBefore.spent().releases;
    let snapLedger: LedgerLike | null = null;
    if (ledgerBefore !== null) {
      snapLedger = ledgerBefore.restoreFrom(st.base.ledger, st.base.seededReleases);
      this.checkLedgerFields(ledgerBefore.toJSON(), st.base.ledger);
      const snapReleases = snapLedger.spent().releases;
      if (releasesBefore > 0) {
        if (snapshot.instance !== this.instance || snapshot.lineage !== this.lineage) {
          throw new RangeError(
            `${this.name}: snapshot field 'instance' is ${JSON.stringify(snapshot.instance)}, not this policy's ${JSON.stringify(this.instance)}, and this policy has already made ${releasesBefore} releases: two ledgers cannot be merged. Load the snapshot into a fresh policy with loadPolicy.`,
          );
        }
        if (snapReleases > releasesBefore) {
          throw new RangeError(
            `${this.name}: snapshot ledger field 'releases' is ${snapReleases}, ahead of this policy's ${releasesBefore}.`,
          );
        }
        if (snapReleases < releasesBefore && options.rewind !== true) {
          throw new RangeError(
            `${this.name}: snapshot ledger field 'releases' is ${snapReleases}, behind this policy's ${releasesBefore}: restoring it would re-spend budget on data already released. Pass { rewind: true } to restore anyway; the ledger then keeps all ${releasesBefore} releases and counts new ones on top.`,
          );
        }
      }
    }
    const backup = this.snapshotState();
    try {
      this.applyState(st);
      if (snapLedger !== null) {
        // the ledger never goes back: a fresh policy adopts the lineage's ledger; a rewound one keeps its own
        this.ledger = releasesBefore > 0 ? ledgerBefore : snapLedger;
        const reason = this.checkReleases(snapLedger.spent());
        if (reason !== null) {
          throw new RangeError(`${this.name}: snapshot is inconsistent with its own ledger: ${reason}.`);
        }
      }
    } catch (e) {
      this.applyState(backup);
      this.ledger = ledgerBefore;
      throw e;
    }
    this.lineage = snapshot.lineage;
    // Secure noise is never replayed: a fresh secure stream (it has no state to restore). Research mode
    // continues the snapshot's seeded stream (applyState), and privacy().noise says 'seeded'.
    if (this.noiseKind === 'secure') this.noiseRng = new SecureRng();
  }

  /**
   * Checks the snapshot's state against the ledger it carries (`spent` is that ledger's guarantee);
   * returns the reason when they disagree (e.g. 3 batches released but `releases` says 0), else null.
   * Called after the state is loaded; non-private policies have no ledger and are not asked.
   */
  protected abstract checkReleases(spent: PrivacySpent): string | null;

  /**
   * For `checkReleases`: null when `spent` is `count` releases of `event` on distinct partitions
   * (parallel composition: the guarantee of one release), else the reason.
   */
  protected parallelReleasesReason(spent: PrivacySpent, count: number, event: PrivacyEvent): string | null {
    if (spent.releases !== count) return `releases is ${spent.releases}, the state shows ${count}`;
    if (spent.partitions !== count) return `partitions is ${spent.partitions}, the state shows ${count}`;
    if (count === 0) return null;
    const one = this.ledger!.fresh();
    one.record(event, 0, 0, 'check');
    const want = one.spent();
    if (!sameNumber(spent.epsilon, want.epsilon) || !sameNumber(spent.rho, want.rho)) {
      return `epsilon ${spent.epsilon} (rho ${spent.rho}) does not match ${count} parallel releases of ${JSON.stringify(event)} (epsilon ${want.epsilon})`;
    }
    return null;
  }

  /** For `checkReleases`: null when `spent` is `count` sequential releases of `rhoEach` each, else the reason. */
  protected sequentialReleasesReason(spent: PrivacySpent, count: number, rhoEach: number): string | null {
    if (spent.releases !== count) return `releases is ${spent.releases}, the state shows ${count}`;
    const want = count * rhoEach;
    if (count > 0 && !sameNumber(spent.rho, want)) {
      return `rho is ${spent.rho}, ${count} releases of rho ${rhoEach} make ${want}`;
    }
    return null;
  }

  private checkEnvelope(snapshot: PolicySnapshot): { base: BaseState; own: unknown } {
    if (typeof snapshot !== 'object' || snapshot === null) {
      throw new TypeError(`${this.name}: restore needs a snapshot object.`);
    }
    const field = (name: string, got: unknown, want: unknown, why: string): void => {
      if (got !== want) {
        throw new RangeError(
          `${this.name}: snapshot field '${name}' is ${JSON.stringify(got)}, expected ${JSON.stringify(want)} (${why}).`,
        );
      }
    };
    field('format', snapshot.format, SNAPSHOT_FORMAT, 'not a policy snapshot');
    field('version', snapshot.version, SNAPSHOT_VERSION, 'snapshot layout of this library');
    field('library', snapshot.library, VERSION, 'a snapshot is read by the library version that wrote it');
    if (snapshot.id !== this.id) {
      throw new RangeError(
        `${this.name}: cannot restore a snapshot of policy '${String(snapshot.id)}' into '${this.id}' (field 'id').`,
      );
    }
    const { checksum, ...content } = snapshot;
    const sum = snapshotChecksum(content);
    if (checksum !== sum) {
      throw new RangeError(
        `${this.name}: snapshot field 'checksum' is ${JSON.stringify(checksum)}, the content gives ${JSON.stringify(sum)}: the snapshot is corrupted or was edited.`,
      );
    }
    for (const name of ['lineage', 'instance'] as const) {
      if (typeof snapshot[name] !== 'string' || !ID_PATTERN.test(snapshot[name])) {
        throw new RangeError(`${this.name}: snapshot field '${name}' must be 16 hex digits.`);
      }
    }
    const cfg = snapshot.config as Record<string, unknown> | null;
    if (typeof cfg !== 'object' || cfg === null) {
      throw new RangeError(`${this.name}: snapshot field 'config' must be an object.`);
    }
    const keys = new Set([...Object.keys(cfg), ...Object.keys(this.config)]);
    for (const k of [...keys].sort()) {
      const got = JSON.stringify(cfg[k]);
      const want = JSON.stringify(this.config[k]);
      if (got !== want) {
        throw new RangeError(
          `${this.name}: snapshot was taken with a different configuration: field 'config.${k}' is ${got ?? 'absent'}, this policy has ${want ?? 'absent'}.`,
        );
      }
    }
    const st = snapshot.state as { base?: BaseState; own?: unknown } | null;
    const base = st?.base;
    if (typeof base !== 'object' || base === null) {
      throw new TypeError(`${this.name}: snapshot field 'state.base' is missing.`);
    }
    const counts = ['clipped', 'rounds', 'nextTicket', 'seededReleases'] as const;
    for (const k of counts) {
      if (!Number.isSafeInteger(base[k]) || base[k] < 0) {
        throw new RangeError(
          `${this.name}: snapshot field 'state.base.${k}' must be a non-negative integer. Got ${String(base[k])}.`,
        );
      }
    }
    if (typeof base.finished !== 'boolean') {
      throw new RangeError(`${this.name}: snapshot field 'state.base.finished' must be true or false.`);
    }
    if (this.noiseKind === 'seeded' && (base.noiseRng === null || typeof base.noiseRng !== 'object')) {
      throw new RangeError(`${this.name}: snapshot field 'state.base.noiseRng' holds no seeded noise state.`);
    }
    if (this.noiseKind === 'secure' && base.noiseRng !== null) {
      throw new RangeError(
        `${this.name}: snapshot field 'state.base.noiseRng' must be null with secure noise.`,
      );
    }
    if ((this.ledger === null) !== (base.ledger === null)) {
      throw new RangeError(`${this.name}: snapshot field 'state.base.ledger' does not fit this policy.`);
    }
    return { base, own: st?.own };
  }

  /** The delta, composition, conversion and orders of a snapshot's ledger must be this policy's. */
  private checkLedgerFields(mine: unknown, theirs: unknown): void {
    const a = mine as Record<string, unknown>;
    const b = theirs as Record<string, unknown>;
    for (const k of ['delta', 'composition', 'conversion', 'orders', 'logLimit']) {
      if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) {
        throw new RangeError(
          `${this.name}: snapshot ledger field '${k}' is ${JSON.stringify(b[k])}, this policy's ledger has ${JSON.stringify(a[k])}.`,
        );
      }
    }
  }

  /** The base and own state without the envelope (for rolling back a refused restore). */
  private snapshotState(): { base: BaseState; own: unknown } {
    return this.snapshot().state as { base: BaseState; own: unknown };
  }

  private applyState(st: { base: BaseState; own: unknown }): void {
    const base = st.base;
    this.loadOwnState(st.own);
    decodeFloat64(base.pendingTicket, this.pendingTicket, 'pendingTicket');
    decodeFloat64(base.pending, this.pending, 'pending');
    this.clipped = base.clipped;
    this.rounds = base.rounds;
    this.nextTicket = base.nextTicket;
    this.finished = base.finished;
    this.rng.restoreState(base.rng);
    if (this.noiseKind === 'seeded' && base.noiseRng !== null) this.noiseRng.restoreState(base.noiseRng);
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
