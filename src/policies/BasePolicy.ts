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

import {
  GaussianMechanism,
  type LedgerLike,
  NON_PRIVATE_SPENT,
  type NoiseCalibration,
  type NoiseHost,
} from '../mechanisms/index.js';
import type { PrivacyEvent } from '../privacy/events.js';
import type { PrivacySpent } from '../privacy/ledger.js';
import type { UnitCounterStore } from '../privacy/UnitCounterStore.js';
import { rngStreams } from '../random/createRng.js';
import type { Rng, RngState } from '../random/index.js';
import { createRng, SecureRng } from '../random/index.js';
import { VERSION } from '../version.js';
import { argmaxFirst } from './argmaxFirst.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import { HorizonExceededError } from './HorizonExceededError.js';
import {
  claimLineage,
  findLineage,
  type LineageSlot,
  lineageReleases,
  STORE_SERIALISED,
} from './lineageRegistry.js';
import type {
  ArmProbabilities,
  InversePropensity,
  Policy,
  PolicyId,
  PolicyPrivacy,
  PolicySnapshot,
  ProbabilityOptions,
  RestoreOptions,
  SelectionWithInversePropensity,
  SelectionWithPropensity,
  SnapshotOptions,
} from './Policy.js';
import type { PolicyConfig } from './PolicyOptions.js';
import { fillOccupiedRows, occupiedCount, occupiedRows } from './pendingRows.js';
import { paperAccountant, policyInfo } from './policyInfo.js';
import { openSnapshot, SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION, signSnapshot } from './snapshotFormat.js';
import { snapshotKeyBytes } from './snapshotKey.js';
import {
  EVENT_LEVEL_STATEMENT,
  NON_PRIVATE_STATEMENT,
  type UnitReleaseNoise,
  UserLevelPrivacy,
  type UserLevelState,
  unitPlanEpsilon,
  unitSettings,
  userLevelStatement,
} from './UserLevelPrivacy.js';

/**
 * What a user-level policy takes from its environment (`createPolicy(id, options, runtime)`,
 * `loadPolicy(text, runtime)`): the clock of `epochDays` epochs (ms since 1970; default `Date.now`)
 * and the store of its units' contribution counts (default: in memory, saved in snapshots).
 */
export interface PolicyRuntime {
  readonly clock?: () => number;
  readonly counters?: UnitCounterStore;
}

/**
 * Vectors whose squared norm exceeds 1 by at most this are rescaled but not counted as clipped
 * (a normalised vector can come out at 1 + 2^-52 by rounding).
 */
export const CLIP_COUNT_TOLERANCE = 1e-12;

const ID_PATTERN = /^[0-9a-f]{16}$/;

/** Two numbers (or nulls) equal to a relative 1e-9 (the ledger sums in a different order). */
function sameNumber(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  if (a === b) return true;
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

/** ' plus R releases rewound past' for messages (empty for R = 0). */
function rewoundNote(extra: number): string {
  return extra === 0 ? '' : ` plus ${extra} releases rewound past`;
}

/** `options` of snapshot/save/restore, checked to be an object. */
function snapshotOptions<T extends object>(options: T, name: string, method: string): T {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      `${name}: ${method} options must be an object such as { key }. Got ${String(options)}.`,
    );
  }
  return options;
}

/** A random 64-bit id as 16 hex digits, from the secure source. */
function randomId(): string {
  const w = new Uint32Array(2);
  globalThis.crypto.getRandomValues(w);
  return w[0]!.toString(16).padStart(8, '0') + w[1]!.toString(16).padStart(8, '0');
}

/**
 * The exploration floor's mixture: gamma / k + (1 - gamma) p(a) for every arm (standard errors
 * scaled by 1 - gamma; exact where p is).
 */
function mixUniform(p: ArmProbabilities, gamma: number, k: number): ArmProbabilities {
  const out = new Float64Array(k);
  for (let a = 0; a < k; a++) out[a] = gamma / k + (1 - gamma) * p.probabilities[a]!;
  const se = p.standardErrors === null ? null : p.standardErrors.map((s) => (1 - gamma) * s);
  return Object.freeze({ probabilities: out, standardErrors: se, samples: p.samples });
}

/** Default Monte Carlo draws of `probabilities` for Thompson-sampling policies. */
export const DEFAULT_PROBABILITY_SAMPLES = 2000;
const MAX_PROBABILITY_SAMPLES = 10_000_000;
/** Default cap of the geometric resampling of `selectWithPropensity` (redraws per decision at most). */
export const DEFAULT_RESAMPLING_CAP = 100_000;
const EXACT_INVERSE_PROPENSITY: InversePropensity = Object.freeze({
  kind: 'exact',
  value: 1,
  cap: null,
  capped: false,
});

/**
 * Copies d values src[so ..) to dst[doff ..) and rescales them to unit norm when their norm exceeds
 * 1. Returns the squared norm before clipping (Number.MAX_VALUE when it overflows although every
 * value is finite: then the values are first divided by the largest magnitude, so 1e200 clips to a
 * unit vector instead of zero; not finite when a value is not finite). Cost 2d (4d on overflow).
 * The one clipping rule of the library and the service (which stores the chosen arm's clipped features).
 */
export function copyClip(src: Float64Array, so: number, dst: Float64Array, doff: number, d: number): number {
  let n2 = 0;
  for (let i = 0; i < d; i++) {
    const v = src[so + i]!;
    dst[doff + i] = v;
    n2 += v * v;
  }
  if (n2 > 1 && n2 < Number.POSITIVE_INFINITY) {
    const s = 1 / Math.sqrt(n2);
    for (let i = 0; i < d; i++) dst[doff + i] = dst[doff + i]! * s;
  } else if (n2 === Number.POSITIVE_INFINITY) {
    // the squares overflow (e.g. 1e200): scale by the largest magnitude before squaring
    let m = 0;
    for (let i = 0; i < d; i++) m = Math.max(m, Math.abs(dst[doff + i]!));
    if (!(m < Number.POSITIVE_INFINITY)) return n2; // an infinite value: the caller names it
    let t = 0;
    for (let i = 0; i < d; i++) {
      const u = dst[doff + i]! / m;
      dst[doff + i] = u;
      t += u * u;
    }
    const s = 1 / Math.sqrt(t);
    for (let i = 0; i < d; i++) dst[doff + i] = dst[doff + i]! * s;
    return Number.MAX_VALUE; // finite features, norm far above 1: clipped
  }
  return n2;
}

interface BaseState {
  readonly clipped: number;
  readonly rounds: number;
  readonly nextTicket: number;
  readonly finished: boolean;
  readonly pendingTicket: string;
  /**
   * The features of the occupied slots of the pending-round table only (slots whose
   * `pendingTicket` is >= 0), in slot order, d values each (format 4; format 3 held every slot).
   */
  readonly pending: string;
  readonly rng: RngState;
  /** The seeded noise stream's state (research mode); null for secure noise, which has no state. */
  readonly noiseRng: RngState | null;
  /**
   * The geometric-resampling generator's state (absent in snapshots written before it existed, and
   * null when it is a secure source: then the restored policy starts a fresh secure one).
   */
  readonly propensityRng?: RngState | null;
  readonly ledger: unknown;
  /** Releases of the lineage made with seeded noise (0 for secure-only lineages). */
  readonly seededReleases: number;
  /** True when the lineage descends from a research-mode branch (`restore(s, { branch: true })`); absent otherwise. */
  readonly branched?: boolean;
  /**
   * Releases in the ledger that the state does not reflect, because the policy was rewound
   * (`restore(s, { rewind: true })`) past them; absent when 0. The consistency checks count them.
   */
  readonly rewound?: number;
  /** privacyUnit 'user': counts, dropped rewards and the releases per epoch; absent otherwise. */
  readonly unit?: UserLevelState;
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
  /**
   * True when `select` itself can release (`PolicyInfo.releasesAtSelect`: DGS-LinUCB's per-step
   * estimate): a superseded holder then refuses `select` too. Elsewhere only learning (update,
   * observe, finish) releases, and a superseded policy may still decide from what it has released
   * (the service's decision views do).
   */
  private readonly releasesAtSelect: boolean;
  /** The exploration seed (also keys the scratch generator of `probabilities`). */
  private readonly seed: number;
  /** The Monte Carlo generators `createRng(seed, 'probabilities:<rounds>')`, the prefix hashed once. */
  private probabilityStreams: ((rest: string) => Rng) | null = null;
  /** Exploration randomness (TS samples): stream 'policy'. */
  protected readonly rng: Rng;
  /**
   * Geometric resampling of `selectWithPropensity` (never the exploration stream, so a seeded
   * policy makes the same choices with or without it): `createRng(seed, 'propensity-resampling')`,
   * one stream that advances with every decision and is saved in snapshots, so no two decisions
   * of one policy share redraws, even from the same model state. A policy restored by
   * `restoreFromStore` (service replicas restore the same snapshot in several processes) uses a
   * fresh secure source instead.
   */
  private propensityRng: Rng;
  /**
   * Mechanism randomness (release noise, subsampling): the secure source, or in research mode
   * `createRng(noiseSeed, 'privacy-noise')`.
   */
  protected noiseRng: Rng;
  /** Where the noise comes from: 'seeded' (research mode, `noiseSeed` given) or 'secure'. */
  protected readonly noiseKind: 'secure' | 'seeded';
  /** The secure source behind `noiseRng` (null in research mode), for the discrete sampler. */
  private secureWords: SecureRng | null;
  /** The ledger of releases (null for non-private policies). */
  protected ledger: LedgerLike | null;
  /** The noise sources and ledger as the mechanisms see them (they follow restores). */
  private readonly noiseHost: NoiseHost = {
    noiseRng: () => this.noiseRng,
    secureWords: () => this.secureWords,
    ledger: () => {
      if (this.ledger === null) throw new Error(`${this.name}: internal error, no ledger.`);
      return this.ledger;
    },
  };
  /** Random id of the lineage (adopted from a snapshot on restore) and of this object. */
  private lineage = randomId();
  private readonly instance = randomId();
  /**
   * This lineage's record in the process-wide registry (lineageRegistry.ts), once it has been
   * snapshotted or restored (private policies only); null before. A holder that another policy has
   * taken the lineage from refuses to select, update or finish.
   */
  private slot: LineageSlot | null = null;
  /**
   * True for a policy restored by `restoreFromStore` (the service's database holds its lineage): it
   * never enters the process-wide registry.
   */
  private storeSerialised = false;
  /** Research-mode branch (`restore(s, { branch: true })`) or a descendant of one: privacy() says so. */
  private branched = false;
  /**
   * Releases in the ledger beyond those the state reflects: a rewind (`restore(s, { rewind: true })`)
   * keeps the ledger of everything released but takes the state back. Saved in the snapshot
   * (`state.base.rewound`), so that the consistency checks of a rewound policy's own snapshot hold.
   */
  private rewound = 0;
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
  private xObs: Float64Array;
  /** privacyUnit 'user': the contribution bounds, counts and user-level ledger; null otherwise. */
  protected readonly unitLevel: UserLevelPrivacy | null;
  /**
   * privacyUnit 'user' with subsampled releases: whether the unit of the reward being learned was
   * drawn into the open release (one draw per unit and release); null otherwise (the subclass draws
   * per reward, event-level).
   */
  protected unitDraw: boolean | null = null;
  /** The last event-level `privacy()` answer and the ledger result it was built from. */
  private eventPrivacy: { readonly own: PrivacySpent; readonly out: PolicyPrivacy } | null = null;
  /** L2 sensitivity of a release: 1 per reward, c = contributionsPerRelease for a user-level policy. */
  protected readonly releaseSensitivity: number;

  protected constructor(id: PolicyId, config: PolicyConfig, ledger: LedgerLike | null) {
    this.id = id;
    this.config = config;
    const info = policyInfo(id);
    this.name = info.displayName;
    this.boundedByHorizon = info.boundedByHorizon;
    this.releasesAtSelect = info.releasesAtSelect;
    this.d = config.dim;
    this.horizon = config.horizon;
    const seed = config.seed;
    this.seed = seed;
    this.rng = createRng(seed, 'policy');
    this.propensityRng = createRng(seed, 'propensity-resampling');
    const noiseSeed = 'noiseSeed' in config ? config.noiseSeed : undefined; // private policies only
    this.noiseKind = typeof noiseSeed === 'number' ? 'seeded' : 'secure';
    this.secureWords = typeof noiseSeed === 'number' ? null : new SecureRng();
    this.noiseRng = this.secureWords ?? createRng(noiseSeed as number, 'privacy-noise');
    this.ledger = ledger;
    ledger?.setNoise(this.noiseKind);
    this.maxPending = config.maxPending;
    this.pending = new Float64Array((this.maxPending + 1) * this.d);
    this.pendingTicket = new Float64Array(this.maxPending + 1).fill(-1);
    this.xObs = new Float64Array(this.d);
    this.feats = new Float64Array(0);
    const unit = ledger !== null && 'delta' in config ? unitSettings(config) : null;
    this.unitLevel = unit === null ? null : new UserLevelPrivacy(unit);
    this.releaseSensitivity = unit === null ? 1 : unit.c;
  }

  /** The noise of a release at this policy's release sensitivity under `calibration` (for the user-level report). */
  protected noiseOf(calibration: NoiseCalibration): UnitReleaseNoise {
    return {
      sigma: calibration.sigma(this.releaseSensitivity),
      q: calibration.q,
      accountant: calibration.accountant,
    };
  }

  /** Poisson sampling of a unit into the open release (user-level subsampled releases): true with probability q. */
  protected unitSample(q: number): boolean {
    return this.noiseRng.uniform() < q;
  }

  /**
   * Sets the clock and the unit-count store of a user-level policy (before its first reward; see
   * {@link PolicyRuntime}). Ignored by event-level policies.
   */
  useRuntime(runtime: PolicyRuntime): void {
    const ul = this.unitLevel;
    if (ul === null) return;
    if (runtime.clock !== undefined) {
      if (typeof runtime.clock !== 'function')
        throw new TypeError(`${this.name}: runtime clock must be a function returning ms since 1970.`);
      ul.clock = runtime.clock;
    }
    if (runtime.counters !== undefined) ul.useCounters(runtime.counters);
  }

  /**
   * A user-level policy restored by a service whose unit counts live in its store: counts the
   * rewards the store dropped since the restored snapshot (they are not replayed) as offered and
   * dropped, before the kept ones are replayed. See {@link UserLevelPrivacy.resumeDropped}. Ignored
   * by event-level policies.
   */
  resumeDroppedRewards(perRelease: number, perEpoch: number): void {
    this.unitLevel?.resumeDropped(perRelease, perEpoch);
  }

  /** The noise of one release (sigma, sampling rate q) for the user-level report; private subclasses with user-level support override it. */
  protected unitReleaseNoise(): UnitReleaseNoise {
    throw new Error(`${this.name}: internal error, no user-level release noise.`);
  }

  get clippedCount(): number {
    return this.clipped;
  }

  /**
   * The Gaussian mechanism of this policy's releases (src/mechanisms): the only way a policy draws
   * privacy noise. `n` is the most coordinates one release has; `discrete` false makes secure noise
   * continuous (polar normals from the secure bits: Amp's subsampled release, whose RDP analysis is
   * for the continuous Gaussian), and `privacy().sampler` then says 'float'. Throws, when the policy
   * is built, for a noise scale the exact discrete sampler could not release (a privacy parameter so
   * small that the noise leaves the range of exactly representable grid points).
   */
  protected createMechanism(calibration: NoiseCalibration, n: number, discrete = true): GaussianMechanism {
    const ledger = this.ledger;
    if (ledger === null)
      throw new Error(`${this.name}: internal error, a non-private policy has no mechanism.`);
    if (!discrete) ledger.setNoise(this.noiseKind, 'float');
    return new GaussianMechanism(this.name, this.noiseHost, calibration, n, discrete);
  }

  /**
   * Within this process a lineage's ledger never goes back (lineageRegistry.ts): restoring a snapshot
   * of `lineage` with `releases` releases is refused when the lineage has made more here already.
   */
  private checkLineageFrontier(lineage: string, releases: number): void {
    const slot = findLineage(lineage);
    if (slot === undefined || slot.holder === this.instance) return;
    const made = lineageReleases(slot);
    if (releases < made) {
      throw new RangeError(
        `${this.name}: snapshot ledger field 'releases' is ${releases}, but its lineage ${lineage} has already made ${made} releases in this process: loading it would release rewards already released. Continue with the policy that holds the lineage (or, in research mode with a seeded noise stream, restore with { branch: true }).`,
      );
    }
  }

  /**
   * Throws when another policy loaded from a snapshot of this lineage has taken it over in this
   * process (lineageRegistry.ts): two branches must not both release the snapshot's unreleased sums.
   */
  private assertHolder(): void {
    const slot = this.slot;
    if (slot !== null && slot.holder !== this.instance) {
      throw new Error(
        `${this.name}: lineage ${this.lineage} is now continued by another policy loaded from its snapshot in this process; two branches would both release the same unreleased rewards, so this one can no longer learn or release (update, observe, finish; select for DGS-LinUCB). Continue with the loaded policy (or, in research mode, load with { branch: true }).`,
      );
    }
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
  /**
   * Randomised policies: draws the policy's choice among the k candidates of `this.feats` afresh
   * from `rng` (never the exploration stream) until `arm` wins, at most `cap` times, and returns
   * the number of draws (`cap` when it never won); with `uniformShare` gamma > 0 each draw is
   * uniform among the k with probability gamma (the exploration floor's mixture). Deterministic
   * ones return 0 (the default).
   */
  protected drawsUntilWin(_k: number, _arm: number, _cap: number, _rng: Rng, _uniformShare = 0): number {
    return 0;
  }
  /**
   * State that must follow the ledger rather than the snapshot when a restore keeps this policy's
   * ledger (`restore(s, { rewind: true })`): captured before the snapshot's state is loaded and given
   * back to {@link applyRewindCarry} after it was checked. Default: nothing (null).
   */
  protected rewindCarry(): unknown {
    return null;
  }
  /** Applies {@link rewindCarry}'s value after a rewind (default: nothing). */
  protected applyRewindCarry(_carry: unknown): void {}
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
    const cap = this.resamplingCapOption(options);
    const gamma = this.uniformShareOption(options);
    const own = this.select(features, k);
    const arm = this.applyFloor(own, gamma, k);
    const policyProbabilities = this.armProbabilities(k, samples, own);
    const probabilities = gamma > 0 ? mixUniform(policyProbabilities, gamma, k) : policyProbabilities;
    const propensity = probabilities.probabilities[arm]!;
    if (!(propensity > 0)) {
      throw new Error(`${this.name}: internal error, the chosen arm ${arm} has probability ${propensity}.`);
    }
    const m = this.drawsUntilWin(k, arm, cap, this.propensityRng, gamma);
    const inversePropensity: InversePropensity =
      m === 0
        ? gamma > 0
          ? Object.freeze({ kind: 'exact', value: 1 / propensity, cap: null, capped: false })
          : EXACT_INVERSE_PROPENSITY
        : Object.freeze({ kind: 'geometric-resampling', value: m, cap, capped: m >= cap });
    return Object.freeze({ arm, propensity, probabilities, inversePropensity, explorationFloor: gamma / k });
  }

  selectWithInversePropensity(
    features: Float64Array,
    k: number,
    options?: ProbabilityOptions,
  ): SelectionWithInversePropensity {
    const cap = this.resamplingCapOption(options);
    const gamma = this.uniformShareOption(options);
    const own = this.select(features, k);
    const arm = this.applyFloor(own, gamma, k);
    const m = this.drawsUntilWin(k, arm, cap, this.propensityRng, gamma);
    let inversePropensity: InversePropensity;
    if (m > 0) {
      inversePropensity = Object.freeze({ kind: 'geometric-resampling', value: m, cap, capped: m >= cap });
    } else if (gamma > 0) {
      // deterministic (no Monte Carlo: exact from the scores), mixed with the floor as selectWithPropensity does
      const p = mixUniform(this.armProbabilities(k, 1, own), gamma, k).probabilities[arm]!;
      inversePropensity = Object.freeze({ kind: 'exact', value: 1 / p, cap: null, capped: false });
    } else inversePropensity = EXACT_INVERSE_PROPENSITY;
    return Object.freeze({ arm, inversePropensity, explorationFloor: gamma / k });
  }

  /**
   * The exploration floor of selectWithPropensity / selectWithInversePropensity: with probability gamma
   * the pending arm is replaced by a uniform one (drawn from the propensity stream, never the policy's).
   */
  private applyFloor(own: number, gamma: number, k: number): number {
    if (!(gamma > 0) || !(this.propensityRng.uniform() < gamma)) return own;
    const arm = this.propensityRng.integer(k);
    this.keep(0, arm);
    return arm;
  }

  update(reward: number, unit?: string): void {
    this.checkReward(reward);
    if (this.pendingTicket[0]! < 0) {
      throw new Error(`${this.name}: update called without a pending select (each select takes one update).`);
    }
    this.checkUnit(unit, 'update');
    this.guardHorizon(1, 'update');
    this.pendingTicket[0] = -1;
    if (this.admitUnit(unit)) this.complete(0, reward);
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

  observe(features: Float64Array, reward: number, unit?: string): void {
    this.checkReward(reward);
    this.checkUnit(unit, 'observe');
    const d = this.d;
    if (!(features instanceof Float64Array) || features.length !== d) {
      throw new RangeError(
        `${this.name}: observe needs the features of the chosen arm, a Float64Array of d = ${d} values. Got ${describeArray(features)}.`,
      );
    }
    this.guardHorizon(1, 'observe');
    if (!this.admitUnit(unit)) return;
    this.clipRow(features, 0, this.xObs, 0, 'observe: features', -1);
    this.rounds++;
    this.learn(this.xObs, reward);
    this.noteUnitReleases();
  }

  observeMany(features: Float64Array, rewards: ArrayLike<number>, units?: ArrayLike<string>): void {
    if (this.finished) throw new Error(`${this.name}: the run is finished; no more rounds.`);
    this.assertHolder();
    const d = this.d;
    const n = rewards?.length;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
      throw new TypeError(
        `${this.name}: observeMany needs rewards as an array of numbers. Got ${String(rewards)}.`,
      );
    }
    if (!(features instanceof Float64Array) || features.length !== n * d) {
      throw new RangeError(
        `${this.name}: observeMany needs features as a Float64Array of n x d = ${n} x ${d} = ${n * d} values (one row per reward). Got ${describeArray(features)}.`,
      );
    }
    // Each input value is read exactly once, into copies that are then validated and learned from:
    // an array-like (or a Proxy) that answers differently on a second read cannot slip an unchecked
    // value past the checks.
    const rs = new Float64Array(n);
    const xs = new Float64Array(n * d);
    for (let r = 0; r < n; r++) {
      const reward: unknown = rewards[r];
      if (typeof reward !== 'number' || !(reward >= 0 && reward <= 1)) {
        throw new RangeError(
          `${this.name}: rewards must be finite numbers in [0, 1]. Got ${String(reward)} at row ${r}.`,
        );
      }
      rs[r] = reward;
    }
    for (let i = 0; i < n * d; i++) xs[i] = features[i]!; // not xs.set: it would read length again
    for (let r = 0; r < n; r++) {
      let n2 = 0;
      for (let i = 0; i < d; i++) n2 += xs[r * d + i]! ** 2;
      if (!(n2 < Number.POSITIVE_INFINITY)) {
        this.checkFinite(xs, r * d, 'row', r);
        throw new RangeError(
          `${this.name}: the squared norm of row ${r} overflows (${n2}); rescale the features.`,
        );
      }
    }
    let us: string[] | null = null;
    if (units !== undefined || this.unitLevel !== null) {
      if (units === undefined || units === null || units.length !== n) {
        throw new RangeError(
          `${this.name}: observeMany needs units as an array of n = ${n} unit ids (non-empty strings)${this.unitLevel !== null ? " (privacyUnit is 'user': every reward needs its unit)" : ''}. Got ${units === undefined ? 'none' : `length ${String(units?.length)}`}.`,
        );
      }
      us = new Array<string>(n);
      for (let r = 0; r < n; r++) {
        const u: unknown = units[r]; // read once, like the rewards
        this.checkUnit(u, `observeMany row ${r}`);
        us[r] = u as string;
      }
    }
    this.guardHorizon(n, `observeMany of ${n} rounds`);
    for (let r = 0; r < n; r++) {
      if (!this.admitUnit(us?.[r])) continue;
      this.clipRow(xs, r * d, this.xObs, 0, 'observeMany: features', r);
      this.rounds++;
      this.learn(this.xObs, rs[r]!);
      this.noteUnitReleases();
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

  updateTicket(ticket: number, reward: number, unit?: string): void {
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
    this.checkUnit(unit, 'updateTicket');
    this.guardHorizon(1, 'updateTicket');
    this.pendingTicket[slot] = -1;
    if (this.admitUnit(unit)) this.complete(slot, reward);
  }

  finish(): void {
    if (this.finished) return;
    this.assertHolder();
    this.finished = true;
    this.onFinish();
    this.noteUnitReleases();
  }

  closeEpoch(): void {
    const ul = this.unitLevel;
    // finish() released everything already
    if (ul === null || this.finished || !ul.mustCloseBefore(ul.epochNow())) return;
    this.assertHolder();
    this.closeOpenRelease();
  }

  privacy(): PolicyPrivacy {
    const own = this.withUnit(this.ledger === null ? NON_PRIVATE_SPENT : this.ledger.spent());
    const spent: PolicyPrivacy = this.branched ? Object.freeze({ ...own, branched: true as const }) : own;
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

  /**
   * The ledger's guarantee with what it protects: `unit` and `statement` for event-level and
   * non-private policies; for user-level ones the top-level epsilon and rho become the cumulative
   * user-level guarantee, with the per-epoch one, the bounds, the epoch, the dropped counts and the
   * per-reward (event-level) figure beside them.
   */
  private withUnit(own: PrivacySpent): PolicyPrivacy {
    const ul = this.unitLevel;
    if (ul === null) {
      // event-level: cached per ledger result (privacy() runs at every reward in the service)
      const hit = this.eventPrivacy;
      if (hit !== null && hit.own === own) return hit.out;
      const statement = this.ledger === null ? NON_PRIVATE_STATEMENT : EVENT_LEVEL_STATEMENT;
      const out: PolicyPrivacy = Object.freeze({ ...own, unit: 'event' as const, statement });
      this.eventPrivacy = { own, out };
      return out;
    }
    const noise = this.unitReleaseNoise();
    const cfg = this.config as {
      readonly orders?: 'paper' | 'extended';
      readonly conversion?: 'classic' | 'improved';
    };
    const accountant = noise.accountant;
    const r = ul.report(noise, own.delta, accountant, cfg.orders ?? 'extended', cfg.conversion ?? 'classic');
    return Object.freeze({
      ...own,
      epsilon: r.cumulative.epsilon,
      rho: r.cumulative.rho,
      composition: own.releases > 0 ? ('sequential' as const) : own.composition,
      unit: 'user' as const,
      bounds: r.bounds,
      epoch: r.epoch,
      perEpoch: r.perEpoch,
      cumulative: r.cumulative,
      releaseEpoch: r.releaseEpoch,
      dropped: r.dropped,
      offered: r.offered,
      unitAccountant: r.accountant,
      eventLevel: this.oneRewardGuarantee(noise, own.delta, cfg),
      statement: userLevelStatement(r),
    });
  }

  /** One reward's guarantee in a user-level policy: one release at sensitivity 1 (0 before any release). */
  private oneRewardGuarantee(
    noise: UnitReleaseNoise,
    delta: number,
    cfg: { readonly orders?: 'paper' | 'extended'; readonly conversion?: 'classic' | 'improved' },
  ): { readonly epsilon: number; readonly rho: number | null } {
    const released = this.ledger !== null && this.ledger.spent().releases > 0 ? 1 : 0;
    const g = unitPlanEpsilon(
      noise.sigma,
      1,
      released,
      noise.q,
      delta,
      noise.accountant,
      cfg.orders ?? 'extended',
      cfg.conversion ?? 'classic',
    );
    return { epsilon: g.epsilon, rho: g.rho };
  }

  snapshot(options: SnapshotOptions = {}): PolicySnapshot {
    const key = snapshotKeyBytes(
      snapshotOptions(options, this.name, 'snapshot').key,
      `${this.name}: snapshot option 'key'`,
    );
    // a snapshot makes a second branch possible: from now on the registry knows the lineage
    if (this.ledger !== null && this.slot === null && !this.storeSerialised) {
      this.slot = claimLineage(this.lineage, this.instance, this.ledger);
    }
    return signSnapshot(this.snapshotContent(), key) as PolicySnapshot;
  }

  /** Everything a snapshot carries except its MAC. */
  private snapshotContent() {
    const base: BaseState = {
      clipped: this.clipped,
      rounds: this.rounds,
      nextTicket: this.nextTicket,
      finished: this.finished,
      pendingTicket: encodeFloat64(this.pendingTicket),
      pending: encodeFloat64(occupiedRows(this.pendingTicket, this.pending, this.d)),
      rng: this.rng.saveState(),
      noiseRng: this.noiseKind === 'seeded' ? this.noiseRng.saveState() : null,
      propensityRng: this.propensityRng instanceof SecureRng ? null : this.propensityRng.saveState(),
      ledger: this.ledger === null ? null : this.ledger.toJSON(),
      seededReleases: this.ledger === null ? 0 : this.ledger.seededReleases,
      ...(this.branched ? { branched: true } : {}),
      ...(this.rewound > 0 ? { rewound: this.rewound } : {}),
      ...(this.unitLevel !== null ? { unit: this.unitLevel.toJSON() } : {}),
    };
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_FORMAT_VERSION,
      library: VERSION,
      id: this.id,
      config: this.config,
      lineage: this.lineage,
      instance: this.instance,
      state: { base, own: this.saveOwnState() },
    };
  }

  save(options: SnapshotOptions = {}): string {
    return JSON.stringify(this.snapshot(options));
  }

  restore(
    snapshot: PolicySnapshot,
    options: RestoreOptions & { readonly [STORE_SERIALISED]?: true } = {},
  ): void {
    const opts = snapshotOptions(options, this.name, 'restore');
    const key = snapshotKeyBytes(opts.key, `${this.name}: restore option 'key'`);
    const verified = openSnapshot(snapshot, key, this.name) as unknown as PolicySnapshot;
    const st = this.checkEnvelope(verified);
    snapshot = verified;
    const ledgerBefore = this.ledger;
    const releasesBefore = ledgerBefore === null ? 0 : ledgerBefore.spent().releases;
    const fromStore = options[STORE_SERIALISED] === true;
    if (fromStore && (this.slot !== null || this.storeSerialised || releasesBefore > 0 || this.rounds > 0)) {
      throw new Error(
        `${this.name}: a store-serialised restore needs a fresh policy (restoreFromStore creates one).`,
      );
    }
    if (fromStore && options.branch === true) {
      throw new RangeError(`${this.name}: a store-serialised restore cannot be a research-mode branch.`);
    }
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
        if (snapReleases < releasesBefore && this.unitLevel !== null) {
          throw new RangeError(
            `${this.name}: snapshot ledger field 'releases' is ${snapReleases}, behind this policy's ${releasesBefore}, and privacyUnit is 'user': going back would reset the units' contribution counts, so a unit could take part in more releases than its bound (option 'rewind' is refused for user-level policies). Continue from the newest snapshot.`,
          );
        }
        if (snapReleases < releasesBefore && options.rewind !== true) {
          throw new RangeError(
            `${this.name}: snapshot ledger field 'releases' is ${snapReleases}, behind this policy's ${releasesBefore}: restoring it would re-spend budget on data already released. Pass { rewind: true } to restore anyway; the ledger then keeps all ${releasesBefore} releases and counts new ones on top.`,
          );
        }
      }
      if (options.branch === true) {
        if (this.noiseKind !== 'seeded') {
          throw new RangeError(
            `${this.name}: restore option 'branch' needs research mode (noiseSeed): with secure noise two branches would release the snapshot's unreleased rewards twice while each ledger counts them once.`,
          );
        }
      }
    }
    // a restore that keeps this policy's ledger (a rewind) keeps what the subclass counts with it
    const carry = releasesBefore > 0 ? this.rewindCarry() : null;
    const backup = this.snapshotState();
    try {
      this.applyState(st);
      if (snapLedger !== null) {
        // the ledger never goes back: a fresh policy adopts the lineage's ledger; a rewound one keeps its own
        this.ledger = releasesBefore > 0 ? ledgerBefore : snapLedger;
        // this.rewound is the snapshot's (applyState): its state against its own ledger
        const reason = this.checkReleases(snapLedger.spent());
        if (reason !== null) {
          throw new RangeError(`${this.name}: snapshot is inconsistent with its own ledger: ${reason}.`);
        }
        if (options.branch !== true && !fromStore) {
          this.checkLineageFrontier(snapshot.lineage, snapLedger.spent().releases);
        }
        // the ledger kept (ledgerBefore after a rewind) may be ahead of the snapshot's: count the difference
        this.rewound += this.ledger!.spent().releases - snapLedger.spent().releases;
        if (carry !== null) this.applyRewindCarry(carry);
      }
    } catch (e) {
      this.applyState(backup);
      this.ledger = ledgerBefore;
      throw e;
    }
    if (options.branch === true && this.ledger !== null) {
      // research mode: a new lineage that reports itself (privacy().branched), holding nobody else's
      this.lineage = randomId();
      this.branched = true;
    } else this.lineage = snapshot.lineage;
    if (fromStore) {
      this.storeSerialised = true;
      // several processes restore the same snapshot: their redraws must not coincide
      this.propensityRng = new SecureRng();
    }
    // the restored policy now holds the lineage: any other policy of it in this process is superseded
    // (not a store-serialised one: the database holds its lineage)
    else if (this.ledger !== null) this.slot = claimLineage(this.lineage, this.instance, this.ledger);
    // Secure noise is never replayed: a fresh secure stream (it has no state to restore). Research mode
    // continues the snapshot's seeded stream (applyState), and privacy().noise says 'seeded'.
    if (this.noiseKind === 'secure') {
      this.secureWords = new SecureRng();
      this.noiseRng = this.secureWords;
    }
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
    const extra = this.rewound;
    if (spent.releases !== count + extra)
      return `releases is ${spent.releases}, the state shows ${count}${rewoundNote(extra)}`;
    // after a rewind, re-released batches compose on their own partition again: at least `count` partitions
    if (
      extra === 0 ? spent.partitions !== count : spent.partitions < count || spent.partitions > count + extra
    )
      return `partitions is ${spent.partitions}, the state shows ${count}${rewoundNote(extra)}`;
    if (count === 0 && extra === 0) return null;
    const one = this.ledger!.fresh();
    one.record(event, 0, 0, 'check');
    const want = one.spent();
    if (extra > 0) {
      // a rewound ledger counts re-releases on top: it may only be above one release's guarantee
      if (!(spent.epsilon >= want.epsilon * (1 - 1e-9))) {
        return `epsilon ${spent.epsilon} is below one release of ${JSON.stringify(event)} (epsilon ${want.epsilon})`;
      }
      return null;
    }
    if (!sameNumber(spent.epsilon, want.epsilon) || !sameNumber(spent.rho, want.rho)) {
      return `epsilon ${spent.epsilon} (rho ${spent.rho}) does not match ${count} parallel releases of ${JSON.stringify(event)} (epsilon ${want.epsilon})`;
    }
    return null;
  }

  /** For `checkReleases`: null when `spent` is `count` sequential releases of `rhoEach` each, else the reason. */
  protected sequentialReleasesReason(spent: PrivacySpent, count: number, rhoEach: number): string | null {
    const extra = this.rewound;
    if (spent.releases !== count + extra)
      return `releases is ${spent.releases}, the state shows ${count}${rewoundNote(extra)}`;
    const want = count * rhoEach;
    if (extra > 0) {
      // a rewound ledger counts re-releases on top: it may only be above what the state shows
      if (!(spent.rho !== null && spent.rho >= want * (1 - 1e-9))) {
        return `rho is ${spent.rho}, below the ${count} releases of rho ${rhoEach} the state shows (${want})`;
      }
      return null;
    }
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
    // format, version and MAC were checked by openSnapshot; the package version never gates loading
    field('format', snapshot.format, SNAPSHOT_FORMAT, 'not a policy snapshot');
    field('version', snapshot.version, SNAPSHOT_FORMAT_VERSION, 'snapshot format version');
    if (snapshot.id !== this.id) {
      throw new RangeError(
        `${this.name}: cannot restore a snapshot of policy '${String(snapshot.id)}' into '${this.id}' (field 'id').`,
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
    const mine = this.config as unknown as Record<string, unknown>;
    const keys = new Set([...Object.keys(cfg), ...Object.keys(mine)]);
    for (const k of [...keys].sort()) {
      // written before the accountant option existed: calibrated by the paper's accountant
      if (k === 'accountant' && cfg[k] === undefined && mine[k] === paperAccountant(this.id)) continue;
      const got = JSON.stringify(cfg[k]);
      const want = JSON.stringify(mine[k]);
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
    if (base.rewound !== undefined && (!Number.isSafeInteger(base.rewound) || base.rewound <= 0)) {
      throw new RangeError(
        `${this.name}: snapshot field 'state.base.rewound' must be a positive integer or absent. Got ${String(base.rewound)}.`,
      );
    }
    if (base.branched !== undefined && base.branched !== true) {
      throw new RangeError(`${this.name}: snapshot field 'state.base.branched' must be true or absent.`);
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
    return this.snapshotContent().state as { base: BaseState; own: unknown };
  }

  private applyState(st: { base: BaseState; own: unknown }): void {
    const base = st.base;
    // the base counters first: a subclass's loadOwnState may check its fields against them (rounds)
    this.rounds = base.rounds;
    this.loadOwnState(st.own);
    decodeFloat64(base.pendingTicket, this.pendingTicket, 'pendingTicket');
    const rows = new Float64Array(occupiedCount(this.pendingTicket) * this.d);
    decodeFloat64(base.pending, rows, 'pending (the occupied slots of pendingTicket)');
    fillOccupiedRows(this.pendingTicket, rows, this.pending, this.d);
    this.clipped = base.clipped;
    this.rounds = base.rounds;
    this.nextTicket = base.nextTicket;
    this.finished = base.finished;
    this.branched = base.branched === true;
    this.rewound = base.rewound ?? 0;
    this.rng.restoreState(base.rng);
    if (this.noiseKind === 'seeded' && base.noiseRng !== null) this.noiseRng.restoreState(base.noiseRng);
    if (base.propensityRng === undefined || base.propensityRng === null) {
      this.propensityRng =
        base.propensityRng === null ? new SecureRng() : createRng(this.seed, 'propensity-resampling');
    } else {
      if (this.propensityRng instanceof SecureRng)
        this.propensityRng = createRng(this.seed, 'propensity-resampling');
      this.propensityRng.restoreState(base.propensityRng);
    }
    if (this.unitLevel !== null)
      this.unitLevel.load(base.unit, `${this.name}: snapshot field 'state.base.unit'`);
  }

  /**
   * Validates, copies and clips the candidates into `this.feats`; `count` says whether clipped
   * vectors are added to `clippedCount` (rounds do; scoring leaves every counter unchanged).
   */
  private prepare(features: Float64Array, k: number, count: boolean): void {
    if (this.finished && count) throw new Error(`${this.name}: the run is finished; no more rounds.`);
    if (count && this.releasesAtSelect) this.assertHolder();
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

  private resamplingCapOption(options: ProbabilityOptions | undefined): number {
    const n = options?.resamplingCap;
    if (n === undefined) return DEFAULT_RESAMPLING_CAP;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0 || n > MAX_PROBABILITY_SAMPLES) {
      throw new RangeError(
        `${this.name}: resamplingCap must be a positive integer <= ${MAX_PROBABILITY_SAMPLES}. Got ${String(n)}.`,
      );
    }
    return n;
  }

  private uniformShareOption(options: ProbabilityOptions | undefined): number {
    const g = options?.uniformShare;
    if (g === undefined) return 0;
    if (typeof g !== 'number' || !(g >= 0 && g < 1)) {
      throw new RangeError(
        `${this.name}: uniformShare (the exploration floor's mixture weight gamma) must be a number in [0, 1). Got ${String(g)}.`,
      );
    }
    return g;
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
    this.probabilityStreams ??= rngStreams(this.seed, 'probabilities:');
    const rng = this.probabilityStreams(String(this.rounds));
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

  /**
   * Hands `learn` its features in `x` (length d, zero-filled) from now on instead of a plain array:
   * for a subclass whose kernels read them from their own memory (no copy per round). Called from
   * the subclass's constructor.
   */
  protected useObservationBuffer(x: Float64Array): void {
    if (x.length !== this.d)
      throw new Error(`${this.name}: internal error, observation buffer of length ${x.length}.`);
    this.xObs = x;
  }

  /**
   * The array behind `this.feats` (k x d values, zero-filled): plain here; a subclass whose kernels
   * read the candidates directly hands out one in their memory.
   */
  protected newFeatures(length: number): Float64Array {
    return new Float64Array(length);
  }

  private grow(k: number): void {
    const d = this.d;
    this.feats = this.newFeatures(k * d);
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
    this.noteUnitReleases();
  }

  /**
   * Refuses a unit that is not a non-empty string, and, for a user-level policy, a reward without
   * a unit (before anything changes).
   */
  private checkUnit(unit: unknown, where: string): void {
    if (unit === undefined) {
      if (this.unitLevel !== null) {
        throw new RangeError(
          `${this.name}: ${where} needs the reward's unit (a user or device id, a non-empty string): privacyUnit is 'user', so each unit's contributions are bounded and all of them are protected together. Got none.`,
        );
      }
      return;
    }
    if (typeof unit !== 'string' || unit.length === 0) {
      throw new RangeError(
        `${this.name}: ${where}: unit must be a non-empty string (a user or device id). Got ${JSON.stringify(unit) ?? String(unit)}.`,
      );
    }
  }

  /**
   * The contribution bounds (user-level policies; true for the others): releases the open release
   * first when the epoch has changed since its data arrived, then applies the one rule
   * (`admitContribution`) to the unit's count. False: the reward is acknowledged and not learned
   * (it enters no statistic; `privacy().dropped` counts it). Which rewards are kept depends only on
   * the order of arrival, never on their values.
   */
  private admitUnit(unit: string | undefined): boolean {
    const ul = this.unitLevel;
    if (ul === null) return true;
    const epoch = ul.epochNow();
    if (ul.mustCloseBefore(epoch)) this.closeOpenRelease();
    const release = this.ledger!.spent().releases + 1;
    const q = this.unitReleaseNoise().q;
    const r = ul.admit(unit as string, epoch, release, q < 1 ? () => this.unitSample(q) : null);
    this.unitDraw = q < 1 ? r.sampled : null;
    return r.admission === 'kept';
  }

  /** Releases the partial batch or episode of the open epoch; nothing of it stays open. */
  private closeOpenRelease(): void {
    this.onFinish();
    this.noteUnitReleases();
    this.unitLevel?.closedOpenRelease();
  }

  /** Tells the user-level ledger how many releases the policy has made (the new ones hold the open epoch's data). */
  private noteUnitReleases(): void {
    if (this.unitLevel !== null) this.unitLevel.noteReleases(this.ledger!.spent().releases);
  }

  private checkReward(reward: number): void {
    if (this.finished) throw new Error(`${this.name}: the run is finished; no more rounds.`);
    this.assertHolder();
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
