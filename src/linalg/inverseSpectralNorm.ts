/** Default iteration cap of {@link inverseSpectralNorm} and `minEigenvalueSpd`. */
export const EIGEN_DEFAULT_MAX_ITER = 1000;
/** Default relative tolerance of {@link inverseSpectralNorm} and `minEigenvalueSpd`. */
export const EIGEN_DEFAULT_TOL = 1e-9;

/**
 * Spectral norm |A^{-1}|_2 = lambda_max(A^{-1}) = 1 / lambda_min(A) of an SPD matrix A = L L^T, by
 * inverse iteration with the Cholesky factor (power iteration on A^{-1} = L^{-T} L^{-1}).
 *
 * Each iteration: y = L^{-1} v (forward solve), mu = |y|^2 = v^T A^{-1} v (the Rayleigh quotient of
 * the unit iterate v), z = L^{-T} y = A^{-1} v, residual r = z - mu v, v <- z / |z|. It stops when
 * |r| <= tol * mu or after maxIter iterations.
 *
 * Convergence and accuracy: with lambda_1 < lambda_2 the two smallest eigenvalues of A and
 * rho = lambda_1 / lambda_2, the eigenvector error shrinks by rho per iteration and the eigenvalue
 * error by rho^2. The returned mu is a Rayleigh quotient, so it never exceeds |A^{-1}|_2 (and
 * 1/mu is an upper bound on lambda_min(A)); at the stopping point the error of mu is at most
 * |r|^2 / gap (Kato-Temple), gap = 1/lambda_1 - 1/lambda_2, and in any case some eigenvalue of
 * A^{-1} lies within |r| of mu. Well-separated spectra converge in tens of iterations; nearly equal
 * smallest eigenvalues (rho ~ 0.99) need ~1000 for |r| ~ 1e-9 mu, but the eigenvalue error is already
 * ~rho^(2k) (e.g. ~1e-10 relative after 1000 iterations with rho = 0.989, measured). A warm start from
 * the previous round's eigenvector (after a rank-one update) typically needs a few iterations for
 * 1e-4 relative accuracy. The cold start vector is a fixed generic vector; were it exactly orthogonal
 * to the eigenvector, rounding error restores the missing component after some iterations.
 *
 * `work` needs length >= 2n. On return work[0..n) holds the unit eigenvector estimate (of the
 * smallest eigenvalue of A). With `warmStart` true and work[0..n) non-zero, that vector is the start.
 * Never throws, never allocates.
 *
 * Cost: n^2 multiply-adds per iteration.
 *
 * @param maxIter - positive integer; default 1000.
 * @param tol - stop when |A^{-1} v - mu v| <= tol * mu; >= 0 (0: run maxIter iterations); default 1e-9.
 * @param warmStart - start from work[0..n) if it is non-zero; default false.
 * @example
 * // A = diag(4, 1): L = diag(2, 1)
 * inverseSpectralNorm(Float64Array.of(2, 0, 0, 1), 2, new Float64Array(4)); // returns ~1
 */
export function inverseSpectralNorm(
  l: Float64Array,
  n: number,
  work: Float64Array,
  maxIter: number = EIGEN_DEFAULT_MAX_ITER,
  tol: number = EIGEN_DEFAULT_TOL,
  warmStart = false,
): number {
  if (n <= 0) return 0;
  // v = work[0..n), y = work[n..2n)
  let nv = 0;
  if (warmStart) for (let i = 0; i < n; i++) nv += work[i]! * work[i]!;
  if (!(nv > 0 && nv < Number.POSITIVE_INFINITY)) {
    nv = 0;
    for (let i = 0; i < n; i++) {
      // a fixed, generic start vector: entries in [0.5, 1.5) from the golden-ratio sequence
      const g = 0.5 + (((i + 1) * 0.6180339887498949) % 1);
      work[i] = g;
      nv += g * g;
    }
  }
  let inv = 1 / Math.sqrt(nv);
  for (let i = 0; i < n; i++) work[i] = work[i]! * inv;
  let mu = 0;
  for (let it = 0; it < maxIter; it++) {
    // forward solve L y = v into work[n..2n)
    let q = 0;
    for (let i = 0; i < n; i++) {
      const ri = i * n;
      let s = work[i]!;
      for (let k = 0; k < i; k++) s -= l[ri + k]! * work[n + k]!;
      const yi = s / l[ri + i]!;
      work[n + i] = yi;
      q += yi * yi;
    }
    mu = q;
    // back solve L^T z = y in place in work[n..2n)
    for (let i = n - 1; i >= 0; i--) {
      const ri = i * n;
      const zi = work[n + i]! / l[ri + i]!;
      work[n + i] = zi;
      for (let k = 0; k < i; k++) work[n + k] = work[n + k]! - l[ri + k]! * zi;
    }
    // residual |A^{-1} v - mu v| and normalisation of the next iterate
    let nz = 0;
    let res = 0;
    for (let i = 0; i < n; i++) {
      const zi = work[n + i]!;
      const ri = zi - mu * work[i]!;
      nz += zi * zi;
      res += ri * ri;
    }
    if (!(nz > 0 && nz < Number.POSITIVE_INFINITY)) return mu;
    inv = 1 / Math.sqrt(nz);
    for (let i = 0; i < n; i++) work[i] = work[n + i]! * inv;
    if (Math.sqrt(res) <= tol * mu) break;
  }
  return mu;
}
