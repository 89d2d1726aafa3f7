/**
 * A seed from the platform's cryptographic generator (`globalThis.crypto.getRandomValues`), for
 * callers who want a reproducible stream whose seed nobody can guess: pass it to `createRng` and keep
 * it secret. Policies do not need it: without `noiseSeed` their noise already comes from the secure
 * source itself ({@link SecureRng}).
 *
 * @returns a uniformly random integer in [0, 2^53).
 * @example
 * const seed = createSecureSeed(); // returns e.g. 3817205559013442
 */
export function createSecureSeed(): number {
  const w = new Uint32Array(2);
  globalThis.crypto.getRandomValues(w);
  return (w[0]! >>> 11) * 4294967296 + w[1]!; // 21 + 32 = 53 bits
}
