/**
 * SplitMix64 finaliser (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number generators";
 * constants of Vigna's `splitmix64.c`). Used only for seeding, so it works on BigInt for clarity.
 *
 * Cost: a few BigInt operations per call; never on a hot path.
 *
 * @example
 * mix64(0n); // returns 0n (the finaliser is a bijection fixing 0)
 */
const MASK64 = (1n << 64n) - 1n;

/** The 64-bit golden-ratio increment of SplitMix64. */
export const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;

/** The SplitMix64 output function: a bijection on 64-bit words with strong avalanche. */
export function mix64(z: bigint): bigint {
  z &= MASK64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

/** Adds modulo 2^64. */
export function add64(a: bigint, b: bigint): bigint {
  return (a + b) & MASK64;
}
