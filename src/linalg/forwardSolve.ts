/**
 * Solves L y = b for y, L lower triangular (row-major n*n, see index.ts). `out` may be `b`.
 * Row-oriented: each step is one contiguous dot product. Never throws, never allocates.
 *
 * Cost: n^2/2 multiply-adds.
 *
 * @example
 * const y = new Float64Array(2);
 * forwardSolve(Float64Array.of(2, 0, 1, 2), 2, Float64Array.of(4, 6), y); // y = [2, 2]
 */
export function forwardSolve(l: Float64Array, n: number, b: Float64Array, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const ri = i * n;
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[ri + k]! * out[k]!;
    out[i] = s / l[ri + i]!;
  }
}
