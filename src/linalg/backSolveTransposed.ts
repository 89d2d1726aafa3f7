/**
 * Solves L^T z = y for z, L lower triangular (row-major n*n, see index.ts). `out` may be `y`.
 * Column-oriented on L^T, i.e. it walks the rows of L: z_i = y_i / L_ii, then y_k -= L_ik z_i
 * for k < i, so all memory access is contiguous. Never throws, never allocates.
 *
 * Cost: n^2/2 multiply-adds.
 *
 * @example
 * const z = new Float64Array(2);
 * backSolveTransposed(Float64Array.of(2, 0, 1, 2), 2, Float64Array.of(4, 4), z); // z = [1, 2]
 */
export function backSolveTransposed(l: Float64Array, n: number, y: Float64Array, out: Float64Array): void {
  if (out !== y) for (let i = 0; i < n; i++) out[i] = y[i]!;
  for (let i = n - 1; i >= 0; i--) {
    const ri = i * n;
    const zi = out[i]! / l[ri + i]!;
    out[i] = zi;
    for (let k = 0; k < i; k++) out[k] = out[k]! - l[ri + k]! * zi;
  }
}
