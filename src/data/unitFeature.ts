/**
 * Writes the arm feature x = normalise(u ⊙ v) (elementwise product of a user factor and an item
 * factor, scaled to unit Euclidean norm; SPEC section 5) into out[offset .. offset + rank) and
 * returns the norm of u ⊙ v before scaling (0 means "no feature": out is left zero).
 *
 * Cost: O(rank). Allocation-free; never throws.
 * @example
 * const out = new Float64Array(2);
 * unitFeature(Float64Array.of(1, 2), 0, Float64Array.of(3, 0), 0, 2, out, 0); // returns 3 (out = [1, 0])
 */
export function unitFeature(
  userFactors: Float64Array,
  userOffset: number,
  itemFactors: Float64Array,
  itemOffset: number,
  rank: number,
  out: Float64Array,
  offset: number,
): number {
  let norm = 0;
  for (let c = 0; c < rank; c++) {
    const x = userFactors[userOffset + c]! * itemFactors[itemOffset + c]!;
    out[offset + c] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  if (!(norm > 0) || !Number.isFinite(norm)) {
    out.fill(0, offset, offset + rank);
    return 0;
  }
  const inv = 1 / norm;
  for (let c = 0; c < rank; c++) out[offset + c]! *= inv;
  return norm;
}
