/**
 * Rank-one update of a Cholesky factor: overwrites L with the factor of L L^T + x x^T (Givens-type
 * update, Golub & Van Loan, "Matrix Computations", 4th ed., section 6.5.4; LINPACK dchud).
 * The diagonal stays positive. `x` is not modified; `work` (length >= n) receives a copy of x that
 * the sweep consumes. Never throws, never allocates. Used every round by the bandit policies to keep
 * the factor of the design matrix A_t = lambda I + sum x_s x_s^T.
 *
 * Cost: 2 n^2 multiply-adds and n square roots, versus n^3/3 for refactorising.
 *
 * @example
 * const l = Float64Array.of(1, 0, 0, 1); // factor of I
 * cholUpdate(l, 2, Float64Array.of(1, 0), new Float64Array(2)); // l = [sqrt(2), 0, 0, 1]
 */
export function cholUpdate(l: Float64Array, n: number, x: Float64Array, work: Float64Array): void {
  for (let i = 0; i < n; i++) work[i] = x[i]!;
  // Columns are taken two at a time: rotation k, then rotation k + 1 (which needs row k + 1 after
  // rotation k) in one sweep over the rows below, so each w_i is loaded and stored once per pair.
  // Every entry receives the same operations in the same order as column-by-column: bit-identical.
  let k = 0;
  for (; k + 1 < n; k += 2) {
    const kk = k * n + k;
    const lkk = l[kk]!;
    const wk = work[k]!;
    const r = Math.sqrt(lkk * lkk + wk * wk);
    const c = r / lkk;
    const s = wk / lkk;
    l[kk] = r;
    const ic = 1 / c;
    const sc = s / c;
    // row k + 1 under rotation k, then rotation k + 1 from its diagonal
    const p1 = kk + n;
    const l1 = l[p1]!;
    const w1 = work[k + 1]!;
    l[p1] = ic * l1 + sc * w1;
    const wj = ic * w1 - sc * l1;
    const jj = p1 + 1;
    const ljj = l[jj]!;
    const r2 = Math.sqrt(ljj * ljj + wj * wj);
    const c2 = r2 / ljj;
    const s2 = wj / ljj;
    l[jj] = r2;
    const ic2 = 1 / c2;
    const sc2 = s2 / c2;
    // L_ik <- (L_ik + s w_i) / c ;  w_i <- c w_i - s L_ik(new)  ==  (w_i - s L_ik(old)) / c
    for (let i = k + 2; i < n; i++) {
      const p = i * n + k;
      const lik = l[p]!;
      const wi = work[i]!;
      l[p] = ic * lik + sc * wi;
      const w = ic * wi - sc * lik;
      const lij = l[p + 1]!;
      l[p + 1] = ic2 * lij + sc2 * w;
      work[i] = ic2 * w - sc2 * lij;
    }
  }
  if (k < n) {
    // the last column has no rows below it
    const kk = k * n + k;
    const lkk = l[kk]!;
    const wk = work[k]!;
    l[kk] = Math.sqrt(lkk * lkk + wk * wk);
  }
}
