// Public API of the random module (implementations in sibling files).
export { createRng, rngFromState } from './createRng.js';
export { createSecureSeed } from './createSecureSeed.js';
export { deriveSeed } from './deriveSeed.js';
export type { Rng, RngState } from './Rng.js';
export { SECURE_ALGORITHM, SecureRng } from './SecureRng.js';
export { XOSHIRO256_ALGORITHM, Xoshiro256 } from './Xoshiro256.js';
