/**
 * A stationary policy with exactly known probabilities, used as the logging policy of synthetic logs
 * and as a frozen target in tests: pi(a | x) = (1 - explore) softmax_a(x_a^T w / temperature) + explore / K.
 * `explore = 1` is the uniformly random policy. Cost O(K d) per round, allocation-free.
 */
import type { Rng } from '../random/index.js';
import type { EvaluatedPolicy } from './EvaluatedPolicy.js';

export interface LinearSoftmaxOptions {
  /** Score weights w, length d. */
  readonly weights: Float64Array;
  /** Softmax temperature > 0; default 1. Smaller is greedier. */
  readonly temperature?: number;
  /** Uniform exploration share in [0, 1]; default 0. Every arm then has probability >= explore / K. */
  readonly explore?: number;
}

export interface LinearSoftmaxPolicy extends EvaluatedPolicy {
  readonly weights: Float64Array;
  readonly temperature: number;
  readonly explore: number;
  /** Draws an arm from the distribution with `rng`; writes the distribution into `out[0..k)`. */
  sample(features: Float64Array, k: number, rng: Rng, out: Float64Array): number;
}

/**
 * @example
 * const pi = linearSoftmaxPolicy({ weights: Float64Array.of(1, 0), temperature: 1, explore: 0 });
 * const out = new Float64Array(2);
 * pi.distribution(Float64Array.of(1, 0, 0, 1), 2, out); // out = [~0.731, ~0.269]
 */
export function linearSoftmaxPolicy(options: LinearSoftmaxOptions): LinearSoftmaxPolicy {
  const w = Float64Array.from(options.weights);
  const d = w.length;
  const temperature = options.temperature ?? 1;
  const explore = options.explore ?? 0;
  if (d === 0 || !w.every(Number.isFinite)) {
    throw new RangeError('linearSoftmaxPolicy: weights must be a non-empty array of finite numbers.');
  }
  if (!(temperature > 0 && Number.isFinite(temperature))) {
    throw new RangeError(`linearSoftmaxPolicy: temperature must be a finite number > 0. Got ${temperature}.`);
  }
  if (!(explore >= 0 && explore <= 1)) {
    throw new RangeError(`linearSoftmaxPolicy: explore must be in [0, 1]. Got ${explore}.`);
  }
  const distribution = (features: Float64Array, k: number, out: Float64Array): void => {
    let max = Number.NEGATIVE_INFINITY;
    for (let a = 0; a < k; a++) {
      let z = 0;
      for (let j = 0; j < d; j++) z += features[a * d + j]! * w[j]!;
      out[a] = z / temperature;
      if (out[a]! > max) max = out[a]!;
    }
    let s = 0;
    for (let a = 0; a < k; a++) {
      out[a] = Math.exp(out[a]! - max);
      s += out[a]!;
    }
    for (let a = 0; a < k; a++) out[a] = (1 - explore) * (out[a]! / s) + explore / k;
  };
  return Object.freeze({
    weights: w,
    temperature,
    explore,
    distribution,
    sample(features: Float64Array, k: number, rng: Rng, out: Float64Array): number {
      distribution(features, k, out);
      const u = rng.uniform();
      let c = 0;
      for (let a = 0; a < k - 1; a++) {
        c += out[a]!;
        if (u < c) return a;
      }
      return k - 1;
    },
  });
}
