/**
 * A += alpha x x^T on a full symmetric row-major n*n matrix. Each product alpha x_i x_j is computed
 * once and added to both (i, j) and (j, i), so an exactly symmetric A stays exactly symmetric.
 * Never throws, never allocates. Cost: n^2/2 multiply-adds.
 *
 * @example
 * const a = Float64Array.of(1, 0, 0, 1);
 * symRankOneUpdate(a, 2, Float64Array.of(1, 2), 1); // a = [2, 2, 2, 5]
 */
export function symRankOneUpdate(a: Float64Array, n: number, x: Float64Array, alpha: number): void {
  for (let i = 0; i < n; i++) {
    const ri = i * n;
    const ax = alpha * x[i]!;
    for (let j = 0; j < i; j++) {
      const v = ax * x[j]!;
      a[ri + j] = a[ri + j]! + v;
      a[j * n + i] = a[j * n + i]! + v;
    }
    a[ri + i] = a[ri + i]! + ax * x[i]!;
  }
}
