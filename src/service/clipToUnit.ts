/**
 * Copies `src[offset .. offset + d)` into `out`, rescaled to unit Euclidean norm when its norm is
 * above 1 (the policies' clipping rule; the policy applies it again when it learns, which changes
 * nothing). Returns true when the vector was rescaled.
 *
 * @example
 * clipToUnit(new Float64Array([3, 4]), 0, 2, out); // out = [0.6, 0.8], returns true
 */
export function clipToUnit(src: Float64Array, offset: number, d: number, out: Float64Array): boolean {
  let n2 = 0;
  for (let i = 0; i < d; i++) {
    const v = src[offset + i]!;
    out[i] = v;
    n2 += v * v;
  }
  if (n2 <= 1) return false;
  const s = 1 / Math.sqrt(n2);
  for (let i = 0; i < d; i++) out[i] = out[i]! * s;
  return true;
}
