/**
 * Small dense linear algebra for the bandit hot loop (d = 5..200), on Float64Array.
 *
 * Layout (all kernels): an n x n matrix is a Float64Array of length >= n*n in ROW-MAJOR order,
 * entry (i, j) at index i*n + j. A Cholesky factor L (A = L L^T) is lower triangular with a positive
 * diagonal, stored in a full n*n array with exact zeros above the diagonal. Row-major was chosen
 * because the hot operations (forward solve, transposed back solve written column-wise on L^T,
 * quadratic forms x^T A^{-1} x) then walk contiguous rows; see docs/numerics.md for the benchmarks.
 *
 * Kernels never allocate and never throw: they trust their sizes (length >= n, n*n, work >= n or 2n
 * as documented per function). Validate at the public entry points that call them.
 */
export { axpy } from './axpy.js';
export { backSolveTransposed } from './backSolveTransposed.js';
export { backSolveTransposedPair } from './backSolveTransposedPair.js';
export { certifiedMinEigenvalue, type GramSum } from './certifiedMinEigenvalue.js';
export { cholesky } from './cholesky.js';
export { cholSolve } from './cholSolve.js';
export { cholUpdate } from './cholUpdate.js';
export { dot } from './dot.js';
export { forwardSolve } from './forwardSolve.js';
export { EIGEN_DEFAULT_MAX_ITER, EIGEN_DEFAULT_TOL, inverseSpectralNorm } from './inverseSpectralNorm.js';
export { invQuadForm } from './invQuadForm.js';
export { kernelArenaFreeBytes, kernelArrays, withKernelArenaScope } from './kernelArena.js';
export { type LinalgKernel, linalgKernel, setLinalgKernel } from './linalgKernel.js';
export { logDetFromCholesky } from './logDetFromCholesky.js';
export { minEigenvalueSpd } from './minEigenvalueSpd.js';
export { norm2 } from './norm2.js';
export { symRankOneUpdate } from './symRankOneUpdate.js';
