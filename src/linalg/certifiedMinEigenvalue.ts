import { inverseSpectralNorm } from './inverseSpectralNorm.js';

/** A running sum V = lambda I + sum_{s <= terms} x_s x_s^T (see {@link certifiedMinEigenvalue}). */
export interface GramSum {
  /** The floating-point sum, row-major n x n; only the lower triangle is read. */
  readonly a: Float64Array;
  /** Number of outer products summed (rounding grows with it). */
  readonly terms: number;
}

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
 * Cost: maxIter * n^2 multiply-adds at most for the iteration, plus n^3/3 per check (n^3/6 to form
 * L L^T, n^3/6 to factorise, with four-way unrolled inner products). One check is usual with a warm
 * start.
 *
 * With `gram`, the matrix certified is instead the exact V = lambda I + sum of `gram.terms` outer
 * products x x^T, of which `gram.a` is the floating-point running sum (lower triangle, row-major):
 * L (a factor of about V) only steers the iteration, and the check factorises a - (ell + alpha) I
 * directly, which saves forming L L^T (half the cost of a check). Then alpha =
 * 4 gamma_{max(n, terms) + 1} tr(a): the running sum's entries are within gamma_{terms + 1} of the
 * sum of the absolute terms (Higham, Accuracy and Stability, section 4.2), whose spectral norm is
 * at most its trace, tr V; that adds at most gamma_{terms + 1} tr V to the rounding covered above.
 *
 * @param relMargin - relative gap between the estimate and the certified bound, in (0, 1); default 1e-3.
 * @param maxIter - inverse-iteration steps per call; default 100.
 * @param gram - certify the running sum V (see above) instead of L L^T.
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
  gram?: GramSum,
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
  if (gram === undefined) for (let i = 0; i < n * n; i++) trace += l[i]! * l[i]!;
  else for (let i = 0; i < n; i++) trace += gram.a[i * n + i]!;
  const k = Math.max(n, gram === undefined ? 0 : gram.terms) + 1;
  const gamma = (k * UNIT_ROUNDOFF) / (1 - k * UNIT_ROUNDOFF);
  if (!(gamma > 0 && gamma < 0.01 && trace < Number.POSITIVE_INFINITY)) return 0;
  const alpha = 4 * gamma * trace;
  for (let m = relMargin; m < 1; m *= 2) {
    const ell = estimate * (1 - m);
    const shift = ell + alpha;
    if (gram === undefined) {
      // lower triangle of L L^T - shift I (row i of L dotted with row j of L, j <= i)
      for (let i = 0; i < n; i++) {
        const ri = i * n;
        for (let j = 0; j <= i; j++) {
          const s = dot4(l, ri, l, j * n, j + 1);
          scratch[ri + j] = i === j ? s - shift : s;
        }
      }
    } else {
      const a = gram.a;
      for (let i = 0; i < n; i++) {
        const ri = i * n;
        for (let j = 0; j < i; j++) scratch[ri + j] = a[ri + j]!;
        scratch[ri + i] = a[ri + i]! - shift;
      }
    }
    if (choleskySucceeds(scratch, n)) return ell;
  }
  return 0;
}

/**
 * sum_{k < len} a[oa + k] b[ob + k] with four partial sums (a chain of dependent additions a
 * quarter as long as one running sum's, which is what limits this loop). The rounding bound gamma_len of an
 * inner product holds for any order of summation (Higham, Accuracy and Stability, section 3.1), so
 * the certificate's alpha covers this order too.
 */
function dot4(a: Float64Array, oa: number, b: Float64Array, ob: number, len: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = 0;
  for (; k + 3 < len; k += 4) {
    s0 += a[oa + k]! * b[ob + k]!;
    s1 += a[oa + k + 1]! * b[ob + k + 1]!;
    s2 += a[oa + k + 2]! * b[ob + k + 2]!;
    s3 += a[oa + k + 3]! * b[ob + k + 3]!;
  }
  for (; k < len; k++) s0 += a[oa + k]! * b[ob + k]!;
  return s0 + s1 + s2 + s3;
}

/**
 * Whether the Cholesky factorisation of the symmetric matrix in the lower triangle of `a` (row-major
 * n x n) runs to the end with positive, finite pivots; factorises in place (Cholesky-Banachiewicz,
 * as `cholesky`, with {@link dot4} inner products) and leaves the upper triangle untouched.
 */
function choleskySucceeds(a: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const ri = i * n;
    for (let j = 0; j < i; j++) {
      const rj = j * n;
      a[ri + j] = (a[ri + j]! - dot4(a, ri, a, rj, j)) / a[rj + j]!;
    }
    const d = a[ri + i]! - dot4(a, ri, a, ri, i);
    if (!(d > 0 && d < Number.POSITIVE_INFINITY)) return false;
    a[ri + i] = Math.sqrt(d);
  }
  return true;
}
