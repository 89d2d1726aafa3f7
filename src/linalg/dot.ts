/**
 * Inner product sum_{i<n} x_i y_i. Never throws, never allocates. Cost: n multiply-adds.
 *
 * @example
 * dot(Float64Array.of(1, 2), Float64Array.of(3, 4), 2); // returns 11
 */
export function dot(x: Float64Array, y: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += x[i]! * y[i]!;
  return s;
}
