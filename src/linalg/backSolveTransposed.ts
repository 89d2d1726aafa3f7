/**
 * Solves L^T z = y for z, L lower triangular (row-major n*n, see index.ts). `out` may be `y`.
 * Column-oriented on L^T, i.e. it walks the rows of L: z_i = y_i / L_ii, then y_k -= L_ik z_i
 * for k < i, so all memory access is contiguous. Rows are taken two at a time (i, then i - 1 in
 * the same sweep over k), which halves the loads and stores of y; each y_k still receives its
 * subtractions in the order i = n - 1, n - 2, ..., so the result is bit-identical to the
 * one-row-at-a-time loop. Never throws, never allocates.
 *
 * Cost: n^2/2 multiply-adds.
 *
 * @example
 * const z = new Float64Array(2);
 * backSolveTransposed(Float64Array.of(2, 0, 1, 2), 2, Float64Array.of(4, 4), z); // z = [1, 2]
 */
export function backSolveTransposed(l: Float64Array, n: number, y: Float64Array, out: Float64Array): void {
  if (out !== y) for (let i = 0; i < n; i++) out[i] = y[i]!;
  let i = n - 1;
  for (; i >= 1; i -= 2) {
    const r0 = i * n;
    const r1 = r0 - n;
    const z0 = out[i]! / l[r0 + i]!;
    out[i] = z0;
    const z1 = (out[i - 1]! - l[r0 + i - 1]! * z0) / l[r1 + i - 1]!;
    out[i - 1] = z1;
    for (let k = 0; k < i - 1; k++) out[k] = out[k]! - l[r0 + k]! * z0 - l[r1 + k]! * z1;
  }
  if (i === 0) out[0] = out[0]! / l[0]!;
}
