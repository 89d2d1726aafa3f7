/**
 * The index of the largest of values[0 .. k), the lowest index among ties (strict `>`), exactly the
 * rule every policy's `select` uses; so `probabilities` of a deterministic policy puts 1 on the arm
 * `select` returns. Never allocates. Cost k.
 *
 * @example
 * argmaxFirst(Float64Array.of(1, 3, 3), 3); // returns 1
 */
export function argmaxFirst(values: Float64Array, k: number): number {
  let best = 0;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let a = 0; a < k; a++) {
    const s = values[a]!;
    if (s > bestScore) {
      bestScore = s;
      best = a;
    }
  }
  return best;
}
