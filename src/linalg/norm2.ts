/**
 * Euclidean norm sqrt(sum_{i<n} x_i^2) of the first n entries (plain sum of squares: no scaling, so
 * entries beyond ~1e154 overflow; bandit features are O(1)). Never throws. Cost: n multiply-adds.
 *
 * @example
 * norm2(Float64Array.of(3, 4), 2); // returns 5
 */
export function norm2(x: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s);
}
