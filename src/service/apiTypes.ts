/**
 * The JSON bodies of the decision service's HTTP API (/v1), shared by the server and
 * `AdaPrivateClient`. Types only: importing this file loads no server code.
 */

/** Body of `PUT /v1/models/{name}`. */
export interface CreateModelRequest {
  /** Policy id, e.g. 'adaprivate-ts'. */
  readonly policy: string;
  /** The policy's options (dim, horizon, epsilon, delta, batchSize, ...); `seed` optional (secure default). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Seconds after a decision within which its reward is accepted; default 3600. */
  readonly rewardWindowSeconds?: number;
  /** Reward in [0, 1] given to decisions whose reward never comes within the window; default null (none). */
  readonly defaultReward?: number | null;
  /** Only 'first' (default): the first reward of an event counts, later ones get 409. */
  readonly duplicateRule?: 'first';
  /** Keep reward values for the decision export; default false. */
  readonly logRewards?: boolean;
  /** Monte Carlo draws for the arm probabilities of Thompson-sampling policies; default 200. */
  readonly probabilitySamples?: number;
}

export interface ModelSettingsView {
  readonly rewardWindowSeconds: number;
  readonly defaultReward: number | null;
  readonly duplicateRule: 'first';
  readonly logRewards: boolean;
  readonly probabilitySamples: number;
}

/** Response of `PUT /v1/models/{name}` (201 created, 200 already existed with the same parameters). */
export interface CreateModelResponse {
  readonly name: string;
  readonly created: boolean;
  readonly policy: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly settings: ModelSettingsView;
}

/** One candidate arm of a rank request. */
export interface ArmInput {
  readonly id: string;
  /** d finite numbers (clipped to unit norm by the policy, counted in the status). */
  readonly features: readonly number[];
}

/** Body of `POST /v1/models/{name}/rank`. */
export interface RankRequest {
  /** Your id for this decision (1-128 characters); generated (a UUID) when absent. */
  readonly eventId?: string;
  /**
   * The privacy unit (user or device id, 1-256 characters) of this event: required by models with
   * privacyUnit 'user', whose guarantee protects all rewards of one unit; logged otherwise.
   */
  readonly unit?: string;
  readonly arms: readonly ArmInput[];
}

export interface RankResponse {
  readonly eventId: string;
  /** Index of the chosen arm in the request's `arms`. */
  readonly chosen: number;
  readonly chosenId: string;
  /** Probability of every arm under the policy when it decided (same order as `arms`). */
  readonly probabilities: readonly number[];
  /** Monte Carlo draws behind `probabilities` (0: exact). */
  readonly probabilitySamples: number;
  /**
   * The model version that decided: releases (steps, for serialised learning on replicas) committed.
   * A policy that releases in its select (DGS-LinUCB, when rewards arrived since its last release)
   * commits that release together with this decision, and `modelVersion` is that release's version.
   */
  readonly modelVersion: number;
}

/** Body of `POST /v1/models/{name}/rewards`. */
export interface RewardRequest {
  readonly eventId: string;
  /** In [0, 1]. */
  readonly reward: number;
  /** The event's privacy unit (optional; must equal the rank's when the rank named one). */
  readonly unit?: string;
}

export interface RewardResponse {
  readonly eventId: string;
  /** Always 'recorded' (errors are 4xx). The reward is durable when this response is sent. */
  readonly status: 'recorded';
  /** True when this reward completed a batch and the release was committed with it. */
  readonly released: boolean;
  readonly modelVersion: number;
  /**
   * User-level models: present when the reward was acknowledged but not learned because its unit
   * was past a contribution bound ('perRelease': c rewards in the open release; 'perEpoch': m
   * releases in the epoch). It enters no statistic and is counted in the status.
   */
  readonly dropped?: 'perRelease' | 'perEpoch';
}

/** Body of `POST /v1/models/{name}/rank/batch`: events ranked in order, each as by the rank route. */
export interface RankBatchRequest {
  readonly events: readonly RankRequest[];
}

/** Body of `POST /v1/models/{name}/rewards/batch`: rewards recorded in order, each as by the rewards route. */
export interface RewardBatchRequest {
  readonly rewards: readonly RewardRequest[];
}

/** One event of a batch that succeeded: what the single-event route would have answered. */
export type BatchSuccess<T> = T & { readonly ok: true; readonly statusCode: 200 };

/**
 * One event of a batch that failed: the error the single-event route would have answered (its
 * statusCode and stable code), and the event id when the request gave one. Nothing of it was applied.
 */
export type BatchFailure = ErrorBody & { readonly ok: false; readonly eventId?: string };

/** One result per event of a batch, in the request's order. */
export type BatchResult<T> = BatchSuccess<T> | BatchFailure;

/** Response of `POST /v1/models/{name}/rank/batch`. */
export interface RankBatchResponse {
  readonly results: readonly BatchResult<RankResponse>[];
}

/** Response of `POST /v1/models/{name}/rewards/batch`. */
export interface RewardBatchResponse {
  readonly results: readonly BatchResult<RewardResponse>[];
}

/**
 * The guarantee spent, from the ledger of releases. For a user-level model `epsilon` and `rho` are
 * one unit's cumulative guarantee over the epochs so far; `perEpoch`, `cumulative`, `bounds`,
 * `epoch`, `dropped` and `eventLevel` say the rest (absent for event-level models).
 */
export interface PrivacyView {
  readonly epsilon: number;
  readonly delta: number;
  readonly rho: number | null;
  readonly releases: number;
  readonly composition: string;
  readonly conversion: string;
  readonly noise: string;
  /** What is protected: 'event' (one reward) or 'user' (all rewards of one unit, within the bounds). */
  readonly unit: 'event' | 'user';
  /** The guarantee in words, naming its unit and bounds (and what is not protected). */
  readonly statement: string;
  readonly bounds?: { readonly contributionsPerRelease: number; readonly releasesPerEpoch: number };
  readonly epoch?: Readonly<Record<string, unknown>>;
  readonly perEpoch?: UnitGuaranteeView;
  readonly cumulative?: UnitGuaranteeView;
  /** Rewards acknowledged but not learned (the unit was past a bound), from the database. */
  readonly dropped?: { readonly perRelease: number; readonly perEpoch: number; readonly total: number };
  readonly eventLevel?: { readonly epsilon: number; readonly rho: number | null };
}

/** One unit's guarantee over `compositions` releases. */
export interface UnitGuaranteeView {
  readonly epsilon: number;
  readonly delta: number;
  readonly rho: number | null;
  readonly compositions: number;
}

/** Response of `GET /v1/models/{name}`. */
export interface ModelStatus {
  readonly name: string;
  readonly policy: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly settings: ModelSettingsView;
  readonly createdAt: string;
  readonly modelVersion: number;
  /** Rounds learned (rewards applied, released or pending). */
  readonly rounds: number;
  readonly decisions: number;
  readonly pendingRewards: number;
  readonly releasedRewards: number;
  readonly defaultRewards: number;
  readonly batchesReleased: number;
  /** False for a non-private policy (linucb, lints): then `guarantee` says so and `privacy` holds no guarantee. */
  readonly private: boolean;
  /** The guarantee in words: what is protected, or that nothing is (non-private policies). */
  readonly guarantee: string;
  readonly privacy: PrivacyView;
  readonly budget: {
    /** True for policies whose guarantee is calibrated for `horizon` rounds (they stop learning after it). */
    readonly boundedByHorizon: boolean;
    readonly horizon: number;
    readonly roundsLeft: number | null;
    /** The configured target (epsilon, delta), or null for non-private policies. */
    readonly target: { readonly epsilon: number | null; readonly delta: number | null } | null;
    readonly learning: boolean;
    readonly note: string;
  };
  /** Feature vectors clipped to unit norm since the last release (restored from the snapshot on restart). */
  readonly clippedFeatures: number;
}

export interface LedgerEntryView {
  readonly version: number;
  readonly time: string;
  readonly rewards: number;
  readonly releases: number;
  readonly rounds: number;
  readonly spent: Readonly<Record<string, unknown>>;
}

export interface LedgerResponse {
  readonly name: string;
  readonly releases: readonly LedgerEntryView[];
  readonly privacy: PrivacyView;
  /** Set when the model was deleted and this is its tombstone's ledger (ISO 8601 time of the deletion). */
  readonly deletedAt?: string;
}

/** Query of DELETE /v1/models/{name}. */
export interface DeleteModelQuery {
  /** 'true': purge (the ledger is removed too; needs `confirm`); default: a tombstone that keeps the ledger. */
  readonly purge?: 'true' | 'false';
  /** With purge=true: the model's name again, to confirm. */
  readonly confirm?: string;
}

/** Answer of DELETE /v1/models/{name}. */
export interface DeleteModelResponse {
  readonly name: string;
  /**
   * 'deleted': now a tombstone (ledger kept); 'purged': model and ledger removed; 'already-deleted':
   * it was a tombstone already (nothing changed).
   */
  readonly outcome: 'deleted' | 'purged' | 'already-deleted';
  /** True when the ledger is kept (tombstone). */
  readonly ledgerKept: boolean;
  /** When the tombstone was made (ISO 8601); null after a purge. */
  readonly deletedAt: string | null;
  /** Rows this call erased. */
  readonly erased: {
    readonly decisions: number;
    readonly pendingRewards: number;
    readonly unitCounts: number;
    readonly ledgerRows: number;
  };
}

/** One line of the NDJSON decision export (the decision-log format read by off-policy evaluation). */
export interface DecisionLogLine {
  readonly eventId: string;
  readonly time: string;
  readonly arms: readonly ArmInput[];
  readonly chosen: number;
  readonly propensity: number;
  readonly probabilities: readonly number[];
  /** Unbiased estimate of 1/propensity (exact 1, or the geometric-resampling count); absent on old decisions. */
  readonly inversePropensity?: number;
  readonly propensityKind?: 'exact' | 'geometric-resampling';
  /** The geometric-resampling cap (with propensityKind 'geometric-resampling'). */
  readonly resamplingCap?: number;
  readonly reward?: number;
  /** The event's privacy unit, when the rank or the reward named one. */
  readonly unit?: string;
  readonly model: string;
  readonly modelVersion: number;
  /** Paging cursor of this line: `?after=<cursor>` exports the lines after it (opaque decimal string). */
  readonly cursor: string;
}

/** Body of every 4xx/5xx response. */
export interface ErrorBody {
  readonly statusCode: number;
  /** Stable machine-readable code, e.g. 'duplicate_reward'. */
  readonly code: string;
  readonly error: string;
  readonly message: string;
}
