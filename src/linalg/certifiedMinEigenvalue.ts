import { cholesky } from './cholesky.js';
import { inverseSpectralNorm } from './inverseSpectralNorm.js';

/** Unit roundoff of binary64. */
const UNIT_ROUNDOFF = 2 ** -53;

/**
 * A certified lower bound ell on the smallest eigenvalue of A = L L^T, for noise calibration:
 * ||A^{-1}||_2 <= 1 / ell is then a valid sensitivity, even when inverse iteration has not converged.
 *
 * Method. A warm-started inverse iteration (at most `maxIter` steps, stopping when the Rayleigh
 * quotient changes by less than relMargin / 8 relative) estimates lambda_min from above (1 / Rayleigh
 * quotient of A^{-1}). The candidate
 * ell = (1 - m) / mu, m = relMargin, is then checked by a Cholesky factorisation of
 * L L^T - (ell + alpha) I formed in `scratch`. If it succeeds, A - ell I is positive definite, so
 * lambda_min(A) > ell. alpha = 4 gamma_{n+1} tr(L L^T), gamma_k = k u / (1 - k u), u = 2^-53. It
 * covers the rounding of forming L L^T (at most gamma_n tr), of the diagonal shift (u tr) and
 * Cholesky's backward error (at most gamma_{n+1} tr, after Demmel; the same argument as Rump's
 * verification of positive definiteness, BIT 2006). If the factorisation fails, the margin doubles
 * (m = 2e-3, 4e-3, ...). The function returns 0 (no bound) once the candidate reaches 0.
 *
 * So the result is never above lambda_min(A) (up to underflow, irrelevant at these magnitudes).
 * After convergence it is within relMargin of it.
 *
 * `work` (length >= 2n) holds the inverse-iteration iterate. Keep it between calls for the warm start
 * (see `inverseSpectralNorm`). `scratch` needs length >= n*n and is overwritten. Never allocates.
 *
 * Cost: maxIter * 2 n^2 at most for the iteration, plus n^3/2 per check (n^3/6 to form L L^T, n^3/3
 * to factorise). One check is usual with a warm start.
 *
 * @param relMargin - relative gap between the estimate and the certified bound, in (0, 1); default 1e-3.
 * @param maxIter - inverse-iteration steps per call; default 100.
 * @example
 * // A = diag(4, 1): L = diag(2, 1); returns ~0.999 (<= 1)
 * certifiedMinEigenvalue(Float64Array.of(2, 0, 0, 1), 2, new Float64Array(4), new Float64Array(4));
 */
export function certifiedMinEigenvalue(
  l: Float64Array,
  n: number,
  work: Float64Array,
  scratch: Float64Array,
  relMargin = 1e-3,
  maxIter = 100,
): number {
  if (n <= 0) return 0;
  // warm-started inverse iteration, one step at a time, until the Rayleigh quotient moves by less
  // than relMargin / 8 (a heuristic stop: the Cholesky check below is what makes the result safe)
  let mu = 0;
  for (let it = 0; it < maxIter; it++) {
    const next = inverseSpectralNorm(l, n, work, 1, 0, true);
    const settled = it > 0 && Math.abs(next - mu) <= (relMargin / 8) * next;
    mu = next;
    if (settled) break;
  }
  if (!(mu > 0 && mu < Number.POSITIVE_INFINITY)) return 0;
  const estimate = 1 / mu;
  let trace = 0;
  for (let i = 0; i < n * n; i++) trace += l[i]! * l[i]!;
  const gamma = ((n + 1) * UNIT_ROUNDOFF) / (1 - (n + 1) * UNIT_ROUNDOFF);
  const alpha = 4 * gamma * trace;
  for (let m = relMargin; m < 1; m *= 2) {
    const ell = estimate * (1 - m);
    const shift = ell + alpha;
    // lower triangle of L L^T - shift I (row i of L dotted with row j of L, j <= i)
    for (let i = 0; i < n; i++) {
      const ri = i * n;
      for (let j = 0; j <= i; j++) {
        const rj = j * n;
        let s = 0;
        for (let k = 0; k <= j; k++) s += l[ri + k]! * l[rj + k]!;
        scratch[ri + j] = i === j ? s - shift : s;
      }
    }
    if (cholesky(scratch, n, scratch)) return ell;
  }
  return 0;
}
