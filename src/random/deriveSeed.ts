import { add64, GOLDEN_GAMMA, mix64 } from './splitmix64.js';

const encoder = new TextEncoder();

/**
 * Hashes a (seed, stream name) pair into a 64-bit key with the SplitMix64 finaliser: the seed is
 * mixed, then every UTF-8 byte of the name, then the byte length (so that no name is a prefix
 * collision of another). Different names give unrelated keys; the same pair always gives the same key.
 *
 * Cost: O(length of the name) BigInt operations; called once per generator, never per draw.
 */
export function streamKey(seed: number, stream: string): bigint {
  return streamKeyFinish(streamKeyPrefix(seed, ''), stream);
}

/** The hash state of {@link streamKey} after the seed and the bytes of a name's first part. */
export interface StreamKeyPrefix {
  readonly h: bigint;
  readonly length: number;
}

/**
 * The state of {@link streamKey} after `seed` and the bytes of `prefix`: `streamKeyFinish(state,
 * rest)` equals `streamKey(seed, prefix + rest)`, so many names with one prefix hash it once.
 */
export function streamKeyPrefix(seed: number, prefix: string): StreamKeyPrefix {
  return absorb({ h: mix64(add64(BigInt(seed), GOLDEN_GAMMA)), length: 0 }, prefix);
}

/** `streamKey(seed, prefix + rest)` from the state of `streamKeyPrefix(seed, prefix)`. */
export function streamKeyFinish(state: StreamKeyPrefix, rest: string): bigint {
  const s = absorb(state, rest);
  return mix64(add64(s.h ^ BigInt(s.length), GOLDEN_GAMMA));
}

function absorb(state: StreamKeyPrefix, text: string): StreamKeyPrefix {
  let h = state.h;
  const bytes = encoder.encode(text);
  for (const b of bytes) h = mix64(add64(h ^ BigInt(b), GOLDEN_GAMMA));
  return { h, length: state.length + bytes.length };
}

/** Validates a seed as the public entry points require; `where` names the caller in the message. */
export function checkSeed(where: string, seed: number): void {
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(
      `${where}: seed must be a non-negative safe integer (0 <= seed <= 2^53-1). Got ${String(seed)}.`,
    );
  }
}

/** Validates a stream name. */
export function checkStream(where: string, stream: string): void {
  if (typeof stream !== 'string') {
    throw new TypeError(
      `${where}: stream must be a string such as 'env', 'policy' or 'noise'. Got ${String(stream)}.`,
    );
  }
}

/**
 * Derives a new seed (a non-negative safe integer, 53 bits) from a seed and a stream name, e.g. one
 * seed per repetition of an experiment from a master seed. Deterministic; different names give
 * unrelated seeds.
 *
 * @param seed - non-negative safe integer.
 * @param stream - any string (default `''`).
 * @example
 * deriveSeed(42, 'run-3') === deriveSeed(42, 'run-3'); // returns true
 */
export function deriveSeed(seed: number, stream = ''): number {
  checkSeed('deriveSeed', seed);
  checkStream('deriveSeed', stream);
  return Number(mix64(streamKey(seed, stream) ^ 0x5eed5eed5eed5eedn) >> 11n);
}
