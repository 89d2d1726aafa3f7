/**
 * Solves L y = b for y, L lower triangular (row-major n*n, see index.ts). `out` may be `b`.
 * Row-oriented: each y_i = (b_i - sum_{k<i} L_ik y_k) / L_ii, the sum subtracted in the order
 * k = 0, 1, ..., i - 1. Rows are taken four at a time, so that four independent running sums share
 * each load of y_k (the chain of dependent subtractions, not the arithmetic, bounds a single dot
 * product); every y_i is still formed by exactly the same operations in the same order, so the
 * result is bit-identical to the one-row-at-a-time loop. Never throws, never allocates.
 *
 * Cost: n^2/2 multiply-adds.
 *
 * @example
 * const y = new Float64Array(2);
 * forwardSolve(Float64Array.of(2, 0, 1, 2), 2, Float64Array.of(4, 6), y); // y = [2, 2]
 */
export function forwardSolve(l: Float64Array, n: number, b: Float64Array, out: Float64Array): void {
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const r0 = i * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    // all four right-hand sides are read before out[i] is written (out may be b)
    let s0 = b[i]!;
    let s1 = b[i + 1]!;
    let s2 = b[i + 2]!;
    let s3 = b[i + 3]!;
    for (let k = 0; k < i; k++) {
      const y = out[k]!;
      s0 -= l[r0 + k]! * y;
      s1 -= l[r1 + k]! * y;
      s2 -= l[r2 + k]! * y;
      s3 -= l[r3 + k]! * y;
    }
    // the 4 x 4 triangle, row by row
    const y0 = s0 / l[r0 + i]!;
    out[i] = y0;
    s1 -= l[r1 + i]! * y0;
    s2 -= l[r2 + i]! * y0;
    s3 -= l[r3 + i]! * y0;
    const y1 = s1 / l[r1 + i + 1]!;
    out[i + 1] = y1;
    s2 -= l[r2 + i + 1]! * y1;
    s3 -= l[r3 + i + 1]! * y1;
    const y2 = s2 / l[r2 + i + 2]!;
    out[i + 2] = y2;
    s3 -= l[r3 + i + 2]! * y2;
    out[i + 3] = s3 / l[r3 + i + 3]!;
  }
  for (; i < n; i++) {
    const ri = i * n;
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[ri + k]! * out[k]!;
    out[i] = s / l[ri + i]!;
  }
}
