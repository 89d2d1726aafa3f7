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
  for (let k = 0; k < n; k++) {
    const kk = k * n + k;
    const lkk = l[kk]!;
    const wk = work[k]!;
    const r = Math.sqrt(lkk * lkk + wk * wk);
    const c = r / lkk;
    const s = wk / lkk;
    l[kk] = r;
    const ic = 1 / c;
    const sc = s / c;
    // L_ik <- (L_ik + s w_i) / c ;  w_i <- c w_i - s L_ik(new)  ==  (w_i - s L_ik(old)) / c
    for (let i = k + 1; i < n; i++) {
      const p = i * n + k;
      const lik = l[p]!;
      const wi = work[i]!;
      l[p] = ic * lik + sc * wi;
      work[i] = ic * wi - sc * lik;
    }
  }
}
