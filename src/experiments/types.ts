/**
 * The data types of the experiment engine: environment and cell configurations, per-cell results,
 * the experiment grid, and the summaries computed over seeds.
 *
 * Everything here is plain, JSON-safe, frozen data. A {@link CellConfig} fully determines a
 * {@link CellResult} (apart from `durationMs`, which is kept out of the deterministic output), so any
 * recorded result can be re-run from the config it carries.
 */
import type { PrivacySpent } from '../privacy/ledger.js';
import type { CellPool } from './CellPool.js';

/** Link from x^T theta* to the expected reward of the synthetic environment. */
export type Link = 'logistic' | 'linear';

/**
 * The paper's synthetic environment (SPEC section 5).
 * Paper values: `{ kind: 'synthetic', dim: 20, arms: 100, armsPerRound: 5, thetaNorm: 2, link: 'logistic' }`.
 */
export interface SyntheticEnvConfig {
  readonly kind: 'synthetic';
  /** Feature dimension d. Default 20; integer >= 1. */
  readonly dim: number;
  /** Size n of the fixed pool of arms. Default 100; integer >= armsPerRound. */
  readonly arms: number;
  /** Arms offered per round K, drawn uniformly without replacement from the pool. Default 5; integer >= 2. */
  readonly armsPerRound: number;
  /** ||theta*||_2. Default 2; finite and > 0. */
  readonly thetaNorm: number;
  /**
   * `'logistic'`: mean sigmoid(x^T theta*) (the paper's). `'linear'`: mean
   * (1 + x^T theta* / thetaNorm) / 2, which is affine in x^T theta* and lies in [0, 1] because
   * |x^T theta*| <= ||x|| ||theta*|| = thetaNorm. Default `'logistic'`.
   */
  readonly link: Link;
  /**
   * Users: each round belongs to a user who arrives this many times in the run (k; the user-level
   * privacy study, `SyntheticUsersEnvironment`). Absent (default): rounds carry no user. Positive integer.
   */
  readonly arrivalsPerUnit?: number;
}

/**
 * A real-data (ratings) environment built by `src/data` (MovieLens, Jester). `options` is passed
 * verbatim to the data module's factories `createRatingsEnvironment(options, seed)` (full-information
 * protocol) and `createReplayStream(options, seed)` (replay protocol).
 */
export interface RatingsEnvConfig {
  readonly kind: 'ratings';
  readonly options: Readonly<Record<string, unknown>>;
}

export type EnvConfig = SyntheticEnvConfig | RatingsEnvConfig;

/**
 * `'full-information'`: every candidate's expected reward is known (exact regret).
 * `'replay'`: Li et al. (2011) replay on a logged stream; only steps where the policy picks the
 * logged arm count (effective steps), and the value is the click-through rate over those steps.
 */
export type Protocol = 'full-information' | 'replay';

/**
 * Hyperparameters passed to `createPolicy` besides dim/horizon/seed/epsilon/delta. Each policy
 * reads only the ones it knows; which ones those are is `policyInfo(id).tuningGrid` / `defaults`.
 */
export interface PolicyParams {
  readonly lambda?: number;
  readonly alpha?: number;
  readonly v?: number;
  readonly batchSize?: number;
  readonly q?: number;
  readonly v0?: number;
  readonly gamma?: number;
  readonly adaptiveSetting?: 'default' | 'tuned';
  readonly cTrigger?: number;
}

/** One hyperparameter value of a grid: a number, or a string for enum-like params (adaptiveSetting). */
export type ParamValue = number | string;

/** One run: one policy, one epsilon, one hyperparameter setting, one seed. */
export interface CellConfig {
  readonly env: EnvConfig;
  readonly protocol: Protocol;
  /** Policy id as accepted by `createPolicy` (src/policies). */
  readonly policy: string;
  /** Privacy budget; `null` for non-private policies (LinUCB, LinTS). */
  readonly epsilon: number | null;
  /** Privacy delta; `null` for non-private policies. */
  readonly delta: number | null;
  /** Hyperparameters (keys sorted); `{}` means the policy's defaults. */
  readonly params: Readonly<Record<string, ParamValue>>;
  /** Rounds T (full information) or replay steps consumed (replay). */
  readonly horizon: number;
  /** Seed of both the environment stream and the policy's streams. */
  readonly seed: number;
  /** Record a checkpoint every this many rounds (and always at the last round). */
  readonly checkpointEvery: number;
}

/** Cumulative figures after `round` rounds (full information) or replay steps (replay). */
export interface Checkpoint {
  readonly round: number;
  /** Sum of realised rewards (replay: sum of logged rewards over effective steps). */
  readonly cumulativeReward: number;
  /** Sum of the expected rewards of the chosen arms (full information only; replay: null). */
  readonly cumulativeExpectedReward: number | null;
  /** Sum over rounds of (best offered expected reward - chosen expected reward); replay: null. */
  readonly cumulativeRegret: number | null;
  /** Replay only: effective steps so far (else null). */
  readonly effectiveSteps: number | null;
  /** Replay only: cumulativeReward / effectiveSteps (null before the first effective step). */
  readonly ctr: number | null;
}

/** The deterministic outcome of one cell. */
export interface CellResult {
  /** Stable key of the cell (hash of its config and the software version); results are sorted by it. */
  readonly key: string;
  /** The cell config verbatim. */
  readonly config: CellConfig;
  /** adaprivate version that produced the result. */
  readonly version: string;
  readonly seed: number;
  /** Environment description (`Environment.describe()` / `ReplayStream.describe()`). */
  readonly environment: Readonly<Record<string, unknown>>;
  /** The policy's own frozen config (`Policy.config`). */
  readonly policyConfig: Readonly<Record<string, unknown>>;
  readonly checkpoints: readonly Checkpoint[];
  /**
   * Full information: average EXPECTED reward per round (cumulativeExpectedReward / T).
   * Replay: the CTR over effective steps (0 if there were none).
   */
  readonly meanReward: number;
  /** Average realised reward per round (full information) or the CTR (replay). */
  readonly meanRealisedReward: number;
  /** Cumulative regret at the horizon vs the best offered arm (replay: null). */
  readonly regret: number | null;
  /** Replay: effective steps at the end (else null). */
  readonly effectiveSteps: number | null;
  /** `policy.privacy()` after `finish()`; null for non-private policies (whose epsilon is infinite, not JSON). */
  readonly privacy: PrivacySpent | null;
  /** `policy.clippedCount` at the end. */
  readonly clippedCount: number;
  /**
   * Only when the environment's rounds belong to privacy units (users): how many rewards the policy
   * was given per unit (full information: every round; replay: the effective steps). Absent otherwise.
   */
  readonly units?: UnitRewardCounts;
}

/**
 * The rewards given to a policy per privacy unit in one run, as a histogram: `histogram` lists
 * [rewards, units with that many rewards] pairs by increasing rewards (units with no reward are not
 * seen and not listed). What group privacy costs a unit follows from its count (docs/privacy.md).
 */
export interface UnitRewardCounts {
  /** Units that gave at least one reward. */
  readonly units: number;
  /** Rewards given in total (the sum over the histogram). */
  readonly rewards: number;
  readonly histogram: readonly (readonly [number, number])[];
}

/** Timing of one cell (not deterministic: kept apart from {@link CellResult}). */
export interface CellTiming {
  readonly key: string;
  readonly durationMs: number;
  /** Whether the result came from the cache. */
  readonly cached: boolean;
  /**
   * True when the result was taken from another cell of the same run (same `cellRunKey`, e.g. the
   * defaults written out), relabelled, instead of being computed; absent otherwise.
   */
  readonly shared?: true;
}

/** One policy of a grid and the hyperparameter values to sweep for it (cartesian product). */
export interface PolicyGridEntry {
  readonly policy: string;
  /** e.g. `{ batchSize: [100, 300], v: [1] }`; `{}` = defaults only. Keys sorted after validation. */
  readonly params: Readonly<Record<string, readonly ParamValue[]>>;
}

/**
 * An experiment: the grid policies x epsilons x hyperparameter values x seeds. Validated and
 * frozen by `validateExperimentConfig`, and recorded verbatim in every result file.
 *
 * @example
 * { env: { kind: 'synthetic', dim: 20, arms: 100, armsPerRound: 5, thetaNorm: 2, link: 'logistic' },
 *   protocol: 'full-information',
 *   policies: [{ policy: 'adaprivate-ts', params: { batchSize: [300] } }, { policy: 'linucb', params: {} }],
 *   epsilons: [1, 5], delta: 1e-5, seeds: [1, 2, 3], horizon: 10000, checkpoints: 20 }
 */
export interface ExperimentConfig {
  /** Free-form name (recorded). Default `'experiment'`. */
  readonly name: string;
  readonly env: EnvConfig;
  readonly protocol: Protocol;
  readonly policies: readonly PolicyGridEntry[];
  /** Budgets for private policies (non-private ones run once per seed with epsilon null). */
  readonly epsilons: readonly number[];
  /** Default 1e-5; in (0, 1). */
  readonly delta: number;
  /** Explicit seed list (a count N in the input file means seeds 1..N). */
  readonly seeds: readonly number[];
  readonly horizon: number;
  /** Number of evenly spaced checkpoints (>= 1); default 20. */
  readonly checkpoints: number;
}

/** Everything `runExperiment` returns. `cells` is sorted by key and fully deterministic. */
export interface ExperimentResult {
  readonly version: string;
  readonly config: ExperimentConfig;
  readonly cells: readonly CellResult[];
  /** Non-deterministic timings, same order as `cells`. */
  readonly timings: readonly CellTiming[];
}

/** Progress callback payload. */
export interface RunProgress {
  readonly done: number;
  readonly total: number;
  readonly cached: number;
}

export interface RunOptions {
  /** Worker threads; default: all cores (`os.availableParallelism()`). */
  readonly workers?: number;
  /** Cache directory for finished cells; default: no cache. */
  readonly cacheDir?: string;
  readonly onProgress?: (p: RunProgress) => void;
  /** Abort: in-flight cells are dropped, finished ones stay cached; the promise rejects with an AbortError. */
  readonly signal?: AbortSignal;
  /** Run cells in the calling thread instead of worker threads (debugging, tsx). Default false. */
  readonly inProcess?: boolean;
  /**
   * Worker threads shared with other runs (`new CellPool(threads)`; the caller destroys it); `workers`
   * is then ignored. Default: a pool of `workers` threads for this run alone. Ignored with `inProcess`.
   */
  readonly pool?: CellPool;
}

/** Summary statistics of one metric over seeds. */
export interface SeedStats {
  readonly n: number;
  readonly mean: number;
  /** Sample standard deviation (n - 1 denominator; 0 when n = 1). */
  readonly std: number;
  /** 95% confidence interval of the mean with Student's t quantile (n - 1 dof); [mean, mean] when n = 1. */
  readonly ci95: readonly [number, number];
  /** Values by seed, in `seeds` order. */
  readonly perSeed: readonly number[];
  readonly seeds: readonly number[];
}

/** One group of cells that differ only by seed: a (policy, epsilon, params) setting. */
export interface SettingSummary {
  /** Stable id: `policy|epsilon|k=v,...`. */
  readonly setting: string;
  readonly policy: string;
  readonly epsilon: number | null;
  readonly params: Readonly<Record<string, ParamValue>>;
  /** Mean reward (expected reward per round, or replay CTR). */
  readonly meanReward: SeedStats;
  /** Final cumulative regret (null for replay). */
  readonly regret: SeedStats | null;
  /** Final privacy epsilon actually spent per seed (from the ledger); null for non-private policies. */
  readonly epsilonSpent: SeedStats | null;
  /** Where the privacy noise came from ('seeded' in every runner cell: research mode); absent for non-private policies. */
  readonly noise?: 'secure' | 'seeded';
  /** Mean checkpoint curves over seeds: round, mean and 95% CI of average reward and regret. */
  readonly curve: readonly CurvePoint[];
  /** A representative cell config (seed of the first cell). */
  readonly config: CellConfig;
}

export interface CurvePoint {
  readonly round: number;
  /** Average expected reward per round so far (replay: CTR) over seeds. */
  readonly reward: { readonly mean: number; readonly lo: number; readonly hi: number };
  /** Cumulative regret over seeds (null for replay). */
  readonly regret: { readonly mean: number; readonly lo: number; readonly hi: number } | null;
}

/** Result of a paired two-sided t-test on common seeds. */
export interface PairedTTest {
  readonly n: number;
  /** Mean of a - b. */
  readonly meanDifference: number;
  readonly t: number;
  readonly df: number;
  /** Two-sided p-value. NaN if n < 2 or all differences are equal to the mean (zero variance) with mean 0. */
  readonly pValue: number;
  readonly ci95: readonly [number, number];
  readonly seeds: readonly number[];
}

/** Best hyperparameters per (policy, epsilon) by mean reward; all settings are kept in `all`. */
export interface TuningResult {
  readonly policy: string;
  readonly epsilon: number | null;
  readonly best: SettingSummary;
  /** Every setting of this (policy, epsilon), best first. */
  readonly all: readonly SettingSummary[];
}
