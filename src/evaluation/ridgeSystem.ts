/**
 * The ridge normal equations of a linear reward model over the logged (chosen arm, reward) pairs,
 * shared by the cross-fitted reward model and its private variant.
 */
import type { DecisionLog } from './DecisionLog.js';

/** (lambda I + sum z z^T, sum r z) over `rounds`, z = [x_{a_t}, 1], and the largest norm of a z. */
export interface RidgeSystem {
  /** p x p row-major, p = d + 1; only the lower triangle (with the diagonal) is filled. */
  readonly a: Float64Array;
  /** Length p. */
  readonly b: Float64Array;
  /** max_t ||z_t||_2 over `rounds` (0 when there are none). */
  readonly largestNorm: number;
}

/**
 * Accumulates the ridge system of the given rounds (each must have a reward).
 *
 * @param lambda - the ridge on the diagonal (validated by the caller: finite, > 0).
 * @example
 * const { a, b, largestNorm } = ridgeSystem(log, Int32Array.of(0, 2, 4), 1); // a: (d + 1)^2, b: d + 1
 */
export function ridgeSystem(log: DecisionLog, rounds: Int32Array, lambda: number): RidgeSystem {
  const d = log.dim;
  const p = d + 1;
  const a = new Float64Array(p * p);
  const b = new Float64Array(p);
  const z = new Float64Array(p);
  for (let i = 0; i < p; i++) a[i * p + i] = lambda;
  let largest = 0;
  for (const t of rounds) {
    const off = (log.armOffsets[t]! + log.chosen[t]!) * d;
    let norm2 = 1;
    for (let j = 0; j < d; j++) {
      z[j] = log.features[off + j]!;
      norm2 += z[j]! * z[j]!;
    }
    z[d] = 1;
    largest = Math.max(largest, Math.sqrt(norm2));
    const r = log.reward[t]!;
    for (let i = 0; i < p; i++) {
      b[i] = b[i]! + r * z[i]!;
      for (let j = 0; j <= i; j++) a[i * p + j] = a[i * p + j]! + z[i]! * z[j]!;
    }
  }
  return { a, b, largestNorm: largest };
}
