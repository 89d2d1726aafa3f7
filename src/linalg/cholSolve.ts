import { backSolveTransposed } from './backSolveTransposed.js';
import { forwardSolve } from './forwardSolve.js';

/**
 * Solves (L L^T) z = b given the Cholesky factor L (row-major n*n, see index.ts): a forward and a
 * transposed back substitution. `out` may be `b`. Never throws, never allocates.
 *
 * Cost: n^2 multiply-adds.
 *
 * @example
 * const z = new Float64Array(2);
 * cholSolve(Float64Array.of(2, 0, 1, 2), 2, Float64Array.of(4, 6), z); // solves [[4,2],[2,5]] z = [4,6]: z = [0.5, 1]
 */
export function cholSolve(l: Float64Array, n: number, b: Float64Array, out: Float64Array): void {
  forwardSolve(l, n, b, out);
  backSolveTransposed(l, n, out, out);
}
