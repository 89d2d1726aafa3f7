import { forwardSolve } from './forwardSolve.js';

/**
 * x^T A^{-1} x for A = L L^T: one forward solve y = L^{-1} x (into `work`), then |y|^2. This is the
 * squared confidence width |x|_{A^{-1}}^2 of LinUCB-type policies. `x` is not modified; `work` needs
 * length >= n. Never throws, never allocates.
 *
 * Cost: n^2/2 multiply-adds.
 *
 * @example
 * invQuadForm(Float64Array.of(2, 0, 1, 2), 2, Float64Array.of(4, 6), new Float64Array(2)); // returns 8 (y = [2, 2])
 */
export function invQuadForm(l: Float64Array, n: number, x: Float64Array, work: Float64Array): number {
  // the blocked forward solve (bit-identical to row by row), then the squares summed in row order
  forwardSolve(l, n, x, work);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const yi = work[i]!;
    q += yi * yi;
  }
  return q;
}
