/**
 * The true value of a stationary policy in a full-information environment, by simulation:
 * (1/T) sum_t sum_a pi(a | x_t) mu(x_t, a) over T fresh rounds (expected rewards, no reward noise).
 * The ground truth the estimators are tested against. Cost O(T K d).
 */
import type { Environment } from '../envs/Environment.js';
import type { ActionDistribution } from './EvaluatedPolicy.js';

/**
 * @example
 * onPolicyValue(createSyntheticEnvironment({ dim: 5 }, 99), pi.distribution, 100_000); // returns e.g. ~0.71
 */
export function onPolicyValue(env: Environment, distribution: ActionDistribution, rounds: number): number {
  const k = env.armsPerRound;
  const features = new Float64Array(k * env.dim);
  const expected = new Float64Array(k);
  const probs = new Float64Array(k);
  let total = 0;
  for (let t = 0; t < rounds; t++) {
    env.nextRound(features, expected);
    distribution(features, k, probs);
    for (let a = 0; a < k; a++) total += probs[a]! * expected[a]!;
  }
  return total / rounds;
}
