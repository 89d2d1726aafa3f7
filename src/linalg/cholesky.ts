/**
 * Cholesky factorisation A = L L^T of a symmetric positive definite matrix (Cholesky-Banachiewicz,
 * row by row, so every inner product runs over contiguous memory in the row-major layout).
 *
 * Reads only the lower triangle of `a` (including the diagonal); writes the full n*n array `l`
 * (zeros above the diagonal). `l` may be the same array as `a` (in-place factorisation).
 * Never throws and never allocates; returns false (leaving `l` partly written) if a pivot is not
 * positive and finite, i.e. A is not numerically SPD or contains NaN/Infinity.
 *
 * Cost: n^3/6 multiply-adds (n^3/3 flops).
 *
 * @example
 * const l = new Float64Array(4);
 * cholesky(Float64Array.of(4, 2, 2, 5), 2, l); // returns true; l = [2, 0, 1, 2]
 */
export function cholesky(a: Float64Array, n: number, l: Float64Array): boolean {
  for (let i = 0; i < n; i++) {
    const ri = i * n;
    for (let j = 0; j < i; j++) {
      const rj = j * n;
      let s = a[ri + j]!;
      for (let k = 0; k < j; k++) s -= l[ri + k]! * l[rj + k]!;
      l[ri + j] = s / l[rj + j]!;
    }
    let d = a[ri + i]!;
    for (let k = 0; k < i; k++) {
      const v = l[ri + k]!;
      d -= v * v;
    }
    if (!(d > 0 && d < Number.POSITIVE_INFINITY)) return false;
    l[ri + i] = Math.sqrt(d);
    for (let j = i + 1; j < n; j++) l[ri + j] = 0;
  }
  return true;
}
