/**
 * A reward model for private DR, released privately (event level): ridge regression of the logged
 * reward on [x_{a_t}, 1] over the evaluable rounds, where the Gram matrix A = lambda I + sum z z^T is
 * public (features and chosen arms are public in the policies' privacy model) and the one
 * statistic that reads the rewards, b = sum_t r_t z_t, is released with Gaussian noise through the
 * evaluation's mechanism: one reward in [0, 1] moves b by at most max_t ||z_t|| (its L2 sensitivity,
 * public). Predictions q = [x, 1]^T A^{-1} b~ are clamped to [0, 1], which bounds DR's sensitivity.
 *
 * Cost: O(n d^2 + d^3), one release of d + 1 coordinates.
 */
import { cholesky, cholSolve } from '../linalg/index.js';
import type { GaussianMechanism } from '../mechanisms/index.js';
import type { DecisionLog } from './DecisionLog.js';
import { ridgeSystem } from './ridgeSystem.js';

export interface PrivateRewardModelOptions {
  /** Ridge regulariser lambda > 0 (every coefficient, intercept included); default 1. */
  readonly lambda?: number;
  readonly round: number;
  readonly label: string;
  /**
   * Rewards per protected unit k (default 1): with k > 1 all the rewards of one unit, at most k of
   * `rounds`, are protected together (features and units public) and the sensitivity is k max ||z||.
   */
  readonly contributions?: number;
}

/**
 * @param rounds - the rounds whose rewards the model reads (the evaluable rounds).
 * @returns q(x_t, a) in [0, 1] for every arm of the log (aligned with `log.features`).
 * @example
 * const q = privateRewardModel(log, evaluableRounds(log), mechanism, { round: 0, label: 'reward model' });
 */
export function privateRewardModel(
  log: DecisionLog,
  rounds: Int32Array,
  mechanism: GaussianMechanism,
  options: PrivateRewardModelOptions,
): Float64Array {
  const lambda = options.lambda ?? 1;
  if (!(lambda > 0 && Number.isFinite(lambda))) {
    throw new RangeError(`privateRewardModel: lambda must be a finite number > 0. Got ${lambda}.`);
  }
  const d = log.dim;
  const p = d + 1;
  const { a, b, largestNorm } = ridgeSystem(log, rounds, lambda);
  const noisy = new Float64Array(p);
  const k = options.contributions ?? 1;
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new RangeError(`privateRewardModel: contributions must be a positive integer. Got ${k}.`);
  }
  mechanism.release(b, 0, p, k * Math.max(largestNorm, 1), noisy, 0, options.round, 0, options.label);
  const l = new Float64Array(p * p);
  if (!cholesky(a, p, l))
    throw new Error('privateRewardModel: the ridge system is not positive definite (non-finite features?).');
  const beta = new Float64Array(p);
  cholSolve(l, p, noisy, beta);
  const q = new Float64Array(log.armOffsets[log.rounds]!);
  for (let j = 0; j < q.length; j++) {
    let s = beta[d]!;
    for (let i = 0; i < d; i++) s += beta[i]! * log.features[j * d + i]!;
    q[j] = Math.min(1, Math.max(0, s));
  }
  return q;
}
