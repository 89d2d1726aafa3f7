/**
 * Two transposed back substitutions with one factor in one sweep: L^T z1 = y1 and L^T z2 = y2 (L
 * lower triangular, row-major n*n, see index.ts). `out1` may be `y1` and `out2` may be `y2`; the
 * four arrays must otherwise be distinct. Each solution is formed by exactly the operations, in the
 * same order, of {@link backSolveTransposed} (bit-identical to two calls), but every entry of L is
 * loaded once for both: the TS round needs the ridge estimate and its perturbation from the same
 * factor. Never throws, never allocates.
 *
 * Cost: n^2 multiply-adds (n^2/2 per right-hand side), one pass over L.
 *
 * @example
 * const a = new Float64Array(2);
 * const b = new Float64Array(2);
 * backSolveTransposedPair(Float64Array.of(2, 0, 1, 2), 2, Float64Array.of(4, 4), a, Float64Array.of(2, 2), b);
 * // a = [1, 2], b = [0.5, 1]
 */
export function backSolveTransposedPair(
  l: Float64Array,
  n: number,
  y1: Float64Array,
  out1: Float64Array,
  y2: Float64Array,
  out2: Float64Array,
): void {
  if (out1 !== y1) for (let i = 0; i < n; i++) out1[i] = y1[i]!;
  if (out2 !== y2) for (let i = 0; i < n; i++) out2[i] = y2[i]!;
  let i = n - 1;
  for (; i >= 1; i -= 2) {
    const r0 = i * n;
    const r1 = r0 - n;
    const d0 = l[r0 + i]!;
    const d1 = l[r1 + i - 1]!;
    const c0 = l[r0 + i - 1]!;
    const a0 = out1[i]! / d0;
    const b0 = out2[i]! / d0;
    out1[i] = a0;
    out2[i] = b0;
    const a1 = (out1[i - 1]! - c0 * a0) / d1;
    const b1 = (out2[i - 1]! - c0 * b0) / d1;
    out1[i - 1] = a1;
    out2[i - 1] = b1;
    for (let k = 0; k < i - 1; k++) {
      const p = l[r0 + k]!;
      const q = l[r1 + k]!;
      out1[k] = out1[k]! - p * a0 - q * a1;
      out2[k] = out2[k]! - p * b0 - q * b1;
    }
  }
  if (i === 0) {
    out1[0] = out1[0]! / l[0]!;
    out2[0] = out2[0]! / l[0]!;
  }
}
