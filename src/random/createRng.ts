import { checkSeed, checkStream, streamKey, streamKeyFinish, streamKeyPrefix } from './deriveSeed.js';
import type { Rng, RngState } from './Rng.js';
import { add64, GOLDEN_GAMMA, mix64 } from './splitmix64.js';
import { Xoshiro256 } from './Xoshiro256.js';

/**
 * Creates the seeded generator of adaprivate: xoshiro256** with a polar-method normal sampler.
 *
 * Streams: the 256-bit state is four SplitMix64 outputs of a 64-bit key that hashes (seed, stream),
 * so `createRng(s, 'env')`, `createRng(s, 'policy')` and `createRng(s, 'noise')` are independent
 * generators, and the environment's draws do not depend on what the policy consumes (common random
 * numbers across policies). The same (seed, stream) always gives the same sequence on every platform.
 *
 * @param seed - non-negative safe integer (0 <= seed <= 2^53 - 1); no default.
 * @param stream - any string naming the stream; default `''`.
 * @example
 * const a = createRng(7, 'noise');
 * const b = createRng(7, 'noise');
 * a.normal() === b.normal(); // returns true
 */
export function createRng(seed: number, stream = ''): Rng {
  checkSeed('createRng', seed);
  checkStream('createRng', stream);
  return rngFromKey(streamKey(seed, stream));
}

/**
 * `createRng(seed, prefix + rest)` for many `rest` strings of one prefix (the prefix is hashed once):
 * the same generators, at a fraction of the seeding cost when the prefix is most of the name.
 *
 * @example
 * const streams = rngStreams(7, 'probabilities:');
 * streams('12').uniform() === createRng(7, 'probabilities:12').uniform(); // returns true
 */
export function rngStreams(seed: number, prefix: string): (rest: string) => Rng {
  checkSeed('rngStreams', seed);
  checkStream('rngStreams', prefix);
  const state = streamKeyPrefix(seed, prefix);
  return (rest) => {
    checkStream('rngStreams', rest);
    return rngFromKey(streamKeyFinish(state, rest));
  };
}

/** The generator whose state is the four SplitMix64 outputs following `key`. */
function rngFromKey(key: bigint): Rng {
  let z = key;
  const w: bigint[] = [];
  for (let i = 0; i < 4; i++) {
    z = add64(z, GOLDEN_GAMMA);
    w.push(mix64(z));
  }
  if (w[0] === 0n && w[1] === 0n && w[2] === 0n && w[3] === 0n) w[0] = 1n; // unreachable in practice (probability 2^-256)
  return new Xoshiro256([w[0]!, w[1]!, w[2]!, w[3]!]);
}

/**
 * Re-creates a generator from a state saved by `saveState()`; it continues the saved stream exactly.
 *
 * @example
 * const r = createRng(1, 'env'); r.uniform();
 * const copy = rngFromState(JSON.parse(JSON.stringify(r.saveState())));
 * copy.uniform() === r.uniform(); // returns true
 */
export function rngFromState(state: RngState): Rng {
  const r = new Xoshiro256([1n, 0n, 0n, 0n]);
  r.restoreState(state);
  return r;
}
