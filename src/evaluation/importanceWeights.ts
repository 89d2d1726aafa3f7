import { checkOpeInput, type OpeInput } from './OpeInput.js';

/**
 * Importance weights w_t = pi(a_t | x_t) / p_t of the logged arms, written to `out` (allocated when
 * omitted); where the input has a logged inverse propensity (not NaN), w_t = pi(a_t | x_t) x that
 * estimate of 1/p_t (unbiased, so the weighted estimators stay unbiased).
 *
 * @example
 * // one round of 2 arms, logged arm 1 with propensity 0.5, target puts 0.8 on it
 * importanceWeights({ rewards: Float64Array.of(1), actions: Int32Array.of(1), propensities: Float64Array.of(0.5),
 *   offsets: Int32Array.of(0, 2), target: Float64Array.of(0.2, 0.8) }); // returns Float64Array [1.6]
 */
export function importanceWeights(input: OpeInput, out?: Float64Array): Float64Array {
  const n = checkOpeInput(input);
  const w = out ?? new Float64Array(n);
  const ip = input.inversePropensities;
  for (let t = 0; t < n; t++) {
    const pi = input.target[input.offsets[t]! + input.actions[t]!]!;
    const inv = ip === undefined ? Number.NaN : ip[t]!;
    w[t] = Number.isNaN(inv) ? pi / input.propensities[t]! : pi * inv;
  }
  return w;
}

/**
 * Kish's effective sample size (sum w)^2 / sum w^2: n when all weights are equal, 1 when one
 * weight carries everything (0 when every weight is 0).
 *
 * @example
 * effectiveSampleSize(Float64Array.of(1, 1, 1, 1)); // returns 4
 * effectiveSampleSize(Float64Array.of(4, 0, 0, 0)); // returns 1
 */
export function effectiveSampleSize(weights: Float64Array): number {
  let s = 0;
  let s2 = 0;
  for (const w of weights) {
    s += w;
    s2 += w * w;
  }
  return s2 > 0 ? (s * s) / s2 : 0;
}
