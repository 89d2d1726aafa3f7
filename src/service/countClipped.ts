/**
 * How many of the `k` feature vectors in `features` (k x d, row-major) a policy counts as clipped:
 * squared norm above 1 + CLIP_COUNT_TOLERANCE, the rule of `BasePolicy` (a unit vector off by
 * rounding is not counted). O(k d), no allocation.
 *
 * @example
 * countClipped(new Float64Array([3, 4, 0.6, 0.8]), 2, 2); // returns 1
 */
import { CLIP_COUNT_TOLERANCE } from '../policies/index.js';

export function countClipped(features: Float64Array, k: number, d: number): number {
  let n = 0;
  for (let a = 0; a < k; a++) {
    let n2 = 0;
    for (let i = a * d; i < (a + 1) * d; i++) n2 += features[i]! * features[i]!;
    if (n2 > 1 + CLIP_COUNT_TOLERANCE) n++;
  }
  return n;
}
