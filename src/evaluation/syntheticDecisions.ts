/**
 * Decision logs from the paper's synthetic environment with a known logging policy, for testing
 * estimators against the truth and for trying `adaprivate evaluate` without data.
 *
 * The logging policy is {@link linearSoftmaxPolicy} on the true scores x^T theta*: `'uniform'`
 * (explore = 1, what replay needs) or `'softmax'` (temperature, with an `explore` share of uniform
 * choice so that every propensity is at least explore / K). Every decision records the full
 * `probabilities` and the propensity of the chosen arm. The environment uses `createRng(seed, 'env')`,
 * the logging policy `createRng(seed, 'logging')`.
 */
import {
  createSyntheticEnvironment,
  type SyntheticEnvironment,
  type SyntheticEnvironmentOptions,
} from '../envs/index.js';
import { createRng } from '../random/index.js';
import type { DecisionRecord } from './DecisionRecord.js';
import { type LinearSoftmaxPolicy, linearSoftmaxPolicy } from './linearSoftmaxPolicy.js';

/** The logging policy of a synthetic log. */
export type SyntheticLogging =
  | { readonly kind: 'uniform' }
  | { readonly kind: 'softmax'; readonly temperature?: number; readonly explore?: number };

export interface SyntheticLogOptions {
  /** Environment options (paper defaults: d = 20, 100 arms, K = 5, logistic link). */
  readonly env?: SyntheticEnvironmentOptions;
  /** Seed of the environment and the logging policy; non-negative safe integer. */
  readonly seed: number;
  /** Number of decisions, positive integer. */
  readonly rounds: number;
  /** Default `{ kind: 'softmax', temperature: 0.5, explore: 0.2 }`. */
  readonly logging?: SyntheticLogging;
}

/** Default logging policy of synthetic logs. */
export const DEFAULT_SYNTHETIC_LOGGING: SyntheticLogging = Object.freeze({
  kind: 'softmax',
  temperature: 0.5,
  explore: 0.2,
});

/**
 * The logging policy of a synthetic log over `env` (weights theta*).
 *
 * @example
 * syntheticLoggingPolicy(env, { kind: 'uniform' }).explore; // returns 1
 */
export function syntheticLoggingPolicy(
  env: SyntheticEnvironment,
  logging: SyntheticLogging,
): LinearSoftmaxPolicy {
  if (logging.kind === 'uniform') return linearSoftmaxPolicy({ weights: env.theta, explore: 1 });
  if (logging.kind !== 'softmax') {
    throw new RangeError(
      `synthetic logs: logging must be 'uniform' or 'softmax'. Got ${String((logging as { kind: unknown }).kind)}.`,
    );
  }
  return linearSoftmaxPolicy({
    weights: env.theta,
    temperature: logging.temperature ?? 0.5,
    explore: logging.explore ?? 0.2,
  });
}

/**
 * Yields `rounds` decisions (contract 4 objects). Arm ids are pool indices; times are one second apart
 * from 2026-01-01T00:00:00Z; event ids `syn-<seed>-<t>`.
 *
 * @example
 * const [first] = syntheticDecisions({ seed: 1, rounds: 1, logging: { kind: 'uniform' } });
 * first.propensity; // returns 0.2 (K = 5 arms, uniform)
 */
export function* syntheticDecisions(options: SyntheticLogOptions): Generator<DecisionRecord> {
  const { seed, rounds } = options;
  if (!Number.isSafeInteger(rounds) || rounds < 1) {
    throw new RangeError(`synthetic logs: rounds must be a positive integer. Got ${rounds}.`);
  }
  const env = createSyntheticEnvironment(options.env ?? {}, seed);
  const logging = syntheticLoggingPolicy(env, options.logging ?? DEFAULT_SYNTHETIC_LOGGING);
  const rng = createRng(seed, 'logging');
  const d = env.dim;
  const k = env.armsPerRound;
  const features = new Float64Array(k * d);
  const expected = new Float64Array(k);
  const probs = new Float64Array(k);
  const start = Date.UTC(2026, 0, 1);
  for (let t = 0; t < rounds; t++) {
    env.nextRound(features, expected);
    const chosen = logging.sample(features, k, rng, probs);
    const ids = env.offeredArms();
    yield {
      eventId: `syn-${seed}-${t}`,
      time: new Date(start + 1000 * t).toISOString(),
      arms: ids.map((id, a) => ({
        id: String(id),
        features: Array.from(features.subarray(a * d, (a + 1) * d)),
      })),
      chosen,
      propensity: probs[chosen]!,
      probabilities: Array.from(probs),
      reward: env.reward(chosen),
    };
  }
}
