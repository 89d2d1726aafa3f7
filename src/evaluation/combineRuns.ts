/**
 * Off-policy estimates of a learning or private policy depend on the policy's own randomness (its
 * exploration seed) and its privacy noise: another run on the same log gives another pi_t, hence
 * another estimate. One run's bootstrap interval covers only the sampling of the logged rounds.
 * `combineRuns` pools R runs made with different exploration seeds and noise draws:
 *
 * - value: the mean of the R runs' estimates (an estimate of the expected value over the policy's
 *   randomness and noise);
 * - interval: the percentile interval of the pooled bootstrap replicates of all runs (a mixture of
 *   the R bootstrap distributions), whose variance is the mean within-run variance plus the
 *   between-run variance of the estimates (x (R - 1)/R): the interval covers the sampling of the
 *   rounds and the run-to-run variation of the policy, so it also covers the value of a single
 *   deployment of the policy, not only the mean over runs;
 * - effective sample size: the mean over runs.
 *
 * Every run must use the same bootstrap seed and log (the replicates then stay paired with the
 * logging policy's, repeated R times, for ratios).
 */
import type { Estimate } from './Estimate.js';
import { percentileInterval } from './ratioBootstrap.js';
import { ZERO_REWARD_NOTE, zeroRewardInterval } from './zeroRewardInterval.js';

/**
 * @param runs - the same estimator's estimate from each run (at least 1), same rounds and level.
 * @example
 * combineRuns([runA.estimates[0], runB.estimates[0]]).interval; // returns the pooled percentile interval
 */
export function combineRuns(
  runs: readonly Estimate[],
): Estimate & { readonly runs: number; readonly betweenRunSd: number } {
  const r = runs.length;
  if (r === 0) throw new RangeError('combineRuns: needs at least one run.');
  const first = runs[0]!;
  let value = 0;
  let ess = 0;
  let size = 0;
  for (const e of runs) {
    if (e.estimator !== first.estimator || e.rounds !== first.rounds || e.level !== first.level) {
      throw new RangeError(
        `combineRuns: every run must be the same estimator on the same rounds at the same level. Got ${e.estimator} on ${e.rounds} rounds at ${e.level} and ${first.estimator} on ${first.rounds} at ${first.level}.`,
      );
    }
    value += e.value / r;
    ess += e.effectiveSampleSize / r;
    size += e.replicates.length;
  }
  let between = 0;
  for (const e of runs) between += (e.value - value) ** 2;
  const betweenRunSd = r > 1 ? Math.sqrt(between / (r - 1)) : 0;
  const replicates = new Float64Array(size);
  let o = 0;
  for (const e of runs) {
    replicates.set(e.replicates, o);
    o += e.replicates.length;
  }
  const allZero = runs.every((e) => e.note === ZERO_REWARD_NOTE);
  const base: Estimate = {
    estimator: first.estimator,
    value,
    interval: Object.freeze(percentileInterval(replicates, first.level)) as readonly [number, number],
    level: first.level,
    effectiveSampleSize: ess,
    rounds: first.rounds,
    replicates,
  };
  const combined = allZero ? zeroRewardInterval({ ...base, interval: [0, 0] }) : base;
  return Object.freeze({ ...combined, runs: r, betweenRunSd });
}

/**
 * The logging policy's estimate with its replicates repeated `times` (to stay paired with
 * {@link combineRuns} output of that many runs).
 *
 * @example
 * repeatReplicates(logging, 5).replicates.length; // returns 5 x logging.replicates.length
 */
export function repeatReplicates(e: Estimate, times: number): Estimate {
  const n = e.replicates.length;
  const replicates = new Float64Array(n * times);
  for (let i = 0; i < times; i++) replicates.set(e.replicates, i * n);
  return Object.freeze({ ...e, replicates });
}
