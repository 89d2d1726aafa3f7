// Public API of the random module (implementations in sibling files).
export type { Rng, RngState } from './Rng.js';
