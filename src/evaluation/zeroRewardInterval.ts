/**
 * The interval of an estimate computed from rounds whose rewards are all 0 (no matched click):
 * the bootstrap gives [0, 0], which reads as certainty although the log only shows that the value
 * is small. Replaced by the exact one-sided (Clopper-Pearson) upper bound for 0 successes in m
 * Bernoulli trials, 1 - (1 - level)^(1/m), with m the estimate's effective sample size (the matched
 * rounds for replay, n for the logging policy's average; for importance-weighted estimators the
 * Kish effective sample size stands in for m, which makes the bound approximate).
 */
import type { Estimate } from './Estimate.js';

/** The sentence attached to such an estimate. */
export const ZERO_REWARD_NOTE =
  'no reward above 0 among the rounds this estimate uses: the log cannot decide the value, only bound it from above';

/**
 * @returns the estimate unchanged when some reward it uses is positive (or its interval is not
 * degenerate at 0), else a copy with interval [0, 1 - (1 - level)^(1/m)] and `note` set.
 * @example
 * zeroRewardInterval({ ...e, value: 0, interval: [0, 0], effectiveSampleSize: 46, level: 0.95 }).interval;
 * // returns [0, ~0.0630]
 */
export function zeroRewardInterval(e: Estimate): Estimate {
  if (!(e.value === 0 && e.interval[0] === 0 && e.interval[1] === 0)) return e;
  const m = e.effectiveSampleSize;
  const upper = m >= 1 ? 1 - (1 - e.level) ** (1 / m) : 1;
  return Object.freeze({
    ...e,
    interval: Object.freeze([0, upper]) as readonly [number, number],
    note: ZERO_REWARD_NOTE,
  });
}
