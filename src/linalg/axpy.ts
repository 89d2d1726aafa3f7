/**
 * y += alpha x over the first n entries (BLAS axpy). Never throws, never allocates. Cost: n multiply-adds.
 *
 * @example
 * const y = Float64Array.of(1, 1);
 * axpy(2, Float64Array.of(1, 2), y, 2); // y = [3, 5]
 */
export function axpy(alpha: number, x: Float64Array, y: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) y[i] = y[i]! + alpha * x[i]!;
}
