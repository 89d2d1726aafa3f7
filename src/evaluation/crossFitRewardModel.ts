/**
 * The reward model of the direct method and doubly robust: ridge regression of the logged reward on
 * the chosen arm's features and an intercept, r ~ [x, 1]^T beta, fitted on a separate part of the
 * logs by 2-fold cross-fitting: rounds with a reward are split by the parity of their position; the
 * predictions for each half come from the model fitted on the other half, so no round's prediction
 * has seen its own reward. Predictions are kept in [0, 1] (the reward range).
 *
 * Cost: O(n d^2 + d^3) to fit, O(total arms x d) to predict.
 */
import { cholesky, cholSolve } from '../linalg/index.js';
import type { DecisionLog } from './DecisionLog.js';
import { ridgeSystem } from './ridgeSystem.js';

export interface RewardModelOptions {
  /** Ridge regulariser lambda > 0 (on every coefficient, intercept included). Default 1. */
  readonly lambda?: number;
}

/**
 * Fits beta on the given rounds (with a reward): (lambda I + sum z z^T) beta = sum r z, z = [x_{a_t}, 1].
 *
 * @example
 * fitRidgeRewardModel(log, Int32Array.of(0, 2, 4), 1); // returns Float64Array of d + 1 coefficients
 */
export function fitRidgeRewardModel(log: DecisionLog, rounds: Int32Array, lambda: number): Float64Array {
  const p = log.dim + 1;
  const { a, b } = ridgeSystem(log, rounds, lambda);
  const l = new Float64Array(p * p);
  if (!cholesky(a, p, l))
    throw new Error('reward model: the ridge system is not positive definite (non-finite features?).');
  const beta = new Float64Array(p);
  cholSolve(l, p, b, beta);
  return beta;
}

/**
 * Out-of-fold predictions q(x_t, a) for every arm of every round (aligned with `log.features`);
 * rounds without a reward get the first fold's model.
 *
 * @example
 * const q = crossFitRewardModel(log); // q.length === log.armOffsets[log.rounds]
 */
export function crossFitRewardModel(log: DecisionLog, options: RewardModelOptions = {}): Float64Array {
  const lambda = options.lambda ?? 1;
  if (!(lambda > 0 && Number.isFinite(lambda))) {
    throw new RangeError(`reward model: lambda must be a finite number > 0. Got ${lambda}.`);
  }
  const n = log.rounds;
  const fold = new Int8Array(n).fill(-1);
  const members: number[][] = [[], []];
  let k = 0;
  for (let t = 0; t < n; t++) {
    if (Number.isNaN(log.reward[t]!)) continue;
    fold[t] = k % 2;
    members[k % 2]!.push(t);
    k++;
  }
  // the model for fold f is fitted on the other fold
  const betas = [
    fitRidgeRewardModel(log, Int32Array.from(members[1]!), lambda),
    fitRidgeRewardModel(log, Int32Array.from(members[0]!), lambda),
  ];
  const d = log.dim;
  const q = new Float64Array(log.armOffsets[n]!);
  for (let t = 0; t < n; t++) {
    const beta = betas[Math.max(0, fold[t]!)]!;
    for (let j = log.armOffsets[t]!; j < log.armOffsets[t + 1]!; j++) {
      let s = beta[d]!;
      for (let i = 0; i < d; i++) s += beta[i]! * log.features[j * d + i]!;
      q[j] = Math.min(1, Math.max(0, s));
    }
  }
  return q;
}
