/**
 * The one random-number interface of adaprivate. Every sampler, policy and environment takes an
 * `Rng`; nothing in `src/` calls `Math.random`.
 *
 * Implementations are seeded, deterministic on every platform (integer arithmetic only for the
 * bit stream), and their state can be saved to JSON-safe data and restored exactly.
 */
export interface Rng {
  /** Uniform double in [0, 1) with 53 random bits. */
  uniform(): number;
  /** Standard normal N(0, 1), exact in distribution (no sum-of-uniforms approximations). */
  normal(): number;
  /** true with probability p, p in [0, 1]. */
  bernoulli(p: number): boolean;
  /** Uniform integer in [0, n), n a positive integer below 2^32. Unbiased (rejection). */
  integer(n: number): number;
  /**
   * k distinct indices drawn uniformly from [0, n) into out[0..k). Allocation-free: `scratch`
   * must be an Int32Array of length >= n (it is used as a partial Fisher-Yates permutation).
   */
  sampleWithoutReplacement(n: number, k: number, out: Int32Array, scratch: Int32Array): void;
  /** Fills out[start..end) with independent standard normals, without allocating. */
  fillNormal(out: Float64Array, start?: number, end?: number): void;
  /** The full state as JSON-safe data (including any cached spare normal). */
  saveState(): RngState;
  /** Restores a state produced by `saveState` of the same algorithm; the stream continues exactly. */
  restoreState(state: RngState): void;
}

/** JSON-safe generator state. */
export interface RngState {
  readonly algorithm: string;
  /** The generator words as hexadecimal strings (64-bit words do not fit a JSON number). */
  readonly words: readonly string[];
  /** A cached second normal from a pairwise sampler, or null. */
  readonly spareNormal: number | null;
}
