import { randomBytes } from 'node:crypto';

/**
 * A seed from the operating system's cryptographic generator (`node:crypto` randomBytes), for
 * deployments that do not want a guessable seed. Pass it to `createRng` and record it if the run must
 * be reproducible. This protects the *seed* only: the normal sampler that consumes the stream is still
 * floating point (see docs/numerics.md, "The floating-point caveat").
 *
 * @returns a uniformly random integer in [0, 2^53).
 * @example
 * const seed = createSecureSeed(); // returns e.g. 3817205559013442
 */
export function createSecureSeed(): number {
  const b = randomBytes(7);
  let x = 0;
  for (let i = 0; i < 7; i++) x = x * 256 + (b[i] ?? 0);
  return Math.floor(x / 8); // 56 -> 53 bits
}
