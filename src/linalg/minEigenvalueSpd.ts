import { EIGEN_DEFAULT_MAX_ITER, EIGEN_DEFAULT_TOL, inverseSpectralNorm } from './inverseSpectralNorm.js';

/**
 * Smallest eigenvalue of the SPD matrix A = L L^T by inverse iteration with the Cholesky factor:
 * 1 / inverseSpectralNorm(l, n, work, ...). Used by DGS-LinUCB every round (warm-start it with the
 * previous eigenvector left in work[0..n)). See `inverseSpectralNorm` for convergence and accuracy:
 * the result is an upper bound on lambda_min(A) that converges to it.
 *
 * `work` needs length >= 2n; on return work[0..n) holds the unit eigenvector estimate.
 * Never throws, never allocates. Cost: n^2 multiply-adds per iteration.
 *
 * @param maxIter - positive integer; default 1000.
 * @param tol - residual tolerance relative to the eigenvalue of A^{-1}, >= 0; default 1e-9.
 * @param warmStart - start from work[0..n) if it is non-zero; default false.
 * @example
 * // A = diag(4, 1): L = diag(2, 1)
 * minEigenvalueSpd(Float64Array.of(2, 0, 0, 1), 2, new Float64Array(4)); // returns ~1
 */
export function minEigenvalueSpd(
  l: Float64Array,
  n: number,
  work: Float64Array,
  maxIter: number = EIGEN_DEFAULT_MAX_ITER,
  tol: number = EIGEN_DEFAULT_TOL,
  warmStart = false,
): number {
  return 1 / inverseSpectralNorm(l, n, work, maxIter, tol, warmStart);
}
