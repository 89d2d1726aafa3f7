/**
 * log det(A) for A = L L^T: 2 * sum_i log L_ii. Never throws (a non-positive diagonal gives NaN or
 * -Infinity). Cost: n logarithms.
 *
 * @example
 * logDetFromCholesky(Float64Array.of(2, 0, 1, 2), 2); // returns ~2.7726 (= log 16)
 */
export function logDetFromCholesky(l: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.log(l[i * n + i]!);
  return 2 * s;
}
