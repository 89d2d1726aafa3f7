/**
 * Li et al. (2011) replay of a learning policy: at every evaluable round (reward and propensity
 * logged) the policy selects an arm with its own randomisation; when it matches the logged arm the
 * round counts and the policy learns its reward (`update`), otherwise the round is dropped
 * (`discard`) and the policy learns nothing. The result is a one-hot "distribution" (1 on the
 * selected arm) for the `replay` estimator, whose value is then the average reward of the matched
 * rounds: unbiased for the policy's online value when the logging was uniformly random.
 */
import type { DecisionLog } from './DecisionLog.js';
import { hasPropensity } from './opeInputFromLog.js';

/** The part of a policy replay needs (every library policy has it). */
export interface SelectingPolicy {
  select(features: Float64Array, k: number): number;
  update(reward: number): void;
  /** Abandons the pending select (contract 3); when absent, the next select replaces it. */
  discard?(): void;
}

/**
 * @returns one-hot per round (aligned with the log's arms): 1 on the arm the policy selected.
 * @example
 * const target = replayTarget(log, createPolicy('linucb', { dim: log.dim, horizon: log.rounds, seed: 1 }));
 */
export function replayTarget(log: DecisionLog, policy: SelectingPolicy): Float64Array {
  const d = log.dim;
  const target = new Float64Array(log.armOffsets[log.rounds]!);
  for (let t = 0; t < log.rounds; t++) {
    const r = log.reward[t]!;
    if (Number.isNaN(r) || !hasPropensity(log, t)) continue;
    const from = log.armOffsets[t]!;
    const k = log.armOffsets[t + 1]! - from;
    const arm = policy.select(log.features.subarray(from * d, (from + k) * d), k);
    target[from + arm] = 1;
    if (arm === log.chosen[t]) policy.update(r);
    else policy.discard?.();
  }
  return target;
}
