/** Identifiers of the off-policy estimators, plus `'logged'` (the logging policy's own average). */
export type EstimatorId = 'replay' | 'ipw' | 'snipw' | 'dm' | 'dr';

/** Every estimator, in report order. */
export const ESTIMATOR_IDS: readonly EstimatorId[] = Object.freeze(['replay', 'ipw', 'snipw', 'dm', 'dr']);

/** Display names. */
export const ESTIMATOR_NAMES: Readonly<Record<EstimatorId | 'logged', string>> = Object.freeze({
  replay: 'Replay',
  ipw: 'IPW',
  snipw: 'SNIPW',
  dm: 'Direct method',
  dr: 'Doubly robust',
  logged: 'Logging policy',
});

/** What every estimator returns. */
export interface Estimate {
  readonly estimator: EstimatorId | 'logged';
  /** The estimated average reward per round. */
  readonly value: number;
  /** Percentile bootstrap interval at `level` (rounds resampled with replacement). */
  readonly interval: readonly [number, number];
  readonly level: number;
  /** Effective sample size: (sum w)^2 / sum w^2 of the importance weights (n for DM, matches for replay). */
  readonly effectiveSampleSize: number;
  /** Rounds n the estimate used. */
  readonly rounds: number;
  /** The bootstrap replicates (same resampled rounds for every estimator given the same seed). */
  readonly replicates: Float64Array;
  /** A caveat that belongs with the number (e.g. no positive reward among its rounds: a one-sided interval). */
  readonly note?: string;
}

/** Bootstrap settings shared by the estimators. */
export interface BootstrapOptions {
  /** Number of bootstrap resamples, positive integer. Default 1000. */
  readonly resamples?: number;
  /** Seed of the resampling stream `createRng(seed, 'bootstrap')`; default 0. */
  readonly seed?: number;
  /** Confidence level in (0, 1); default 0.95. */
  readonly level?: number;
}
