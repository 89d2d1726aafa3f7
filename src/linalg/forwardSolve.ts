/**
 * Solves L y = b for y, L lower triangular (row-major n*n, see index.ts). `out` may be `b`.
 * Row-oriented: each y_i = (b_i - sum_{k<i} L_ik y_k) / L_ii, the sum subtracted in the order
 * k = 0, 1, ..., i - 1. Rows are taken two at a time, so that two independent running sums share
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
  for (; i + 1 < n; i += 2) {
    const r0 = i * n;
    const r1 = r0 + n;
    // both right-hand sides are read before out[i] is written (out may be b)
    let s0 = b[i]!;
    let s1 = b[i + 1]!;
    for (let k = 0; k < i; k++) {
      const y = out[k]!;
      s0 -= l[r0 + k]! * y;
      s1 -= l[r1 + k]! * y;
    }
    const y0 = s0 / l[r0 + i]!;
    out[i] = y0;
    s1 -= l[r1 + i]! * y0;
    out[i + 1] = s1 / l[r1 + i + 1]!;
  }
  if (i < n) {
    const ri = i * n;
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[ri + k]! * out[k]!;
    out[i] = s / l[ri + i]!;
  }
}
