/**
 * The neighbouring inputs of a bandit audit: two reward sequences that differ in one reward (the
 * protected record, SPEC section 1), every other reward and every public input held fixed.
 */
import { createRng } from '../random/index.js';
import type { NeighbourPair } from './AuditRoles.js';

/**
 * Rewards of `rounds` rounds: round `changed` (0-based) is 0 in `a` and 1 in `b` (the largest
 * change a reward in [0, 1] can make); the others are `fill` (a number) or, for 'random', uniform
 * draws of stream 'audit-rewards' of `seed`, the same in both.
 *
 * @example
 * rewardNeighbours(3, 0, 0.5).b; // returns Float64Array [1, 0.5, 0.5]
 */
export function rewardNeighbours(
  rounds: number,
  changed: number,
  fill: number | 'random',
  seed = 0,
): NeighbourPair<Float64Array> {
  if (!Number.isSafeInteger(rounds) || rounds <= 0) {
    throw new RangeError(`audit: rounds must be a positive integer. Got ${rounds}.`);
  }
  if (!Number.isSafeInteger(changed) || changed < 0 || changed >= rounds) {
    throw new RangeError(`audit: the changed round must be an integer in [0, ${rounds}). Got ${changed}.`);
  }
  const rng = createRng(seed, 'audit-rewards');
  const a = new Float64Array(rounds);
  for (let t = 0; t < rounds; t++) a[t] = fill === 'random' ? rng.uniform() : fill;
  const b = Float64Array.from(a);
  a[changed] = 0;
  b[changed] = 1;
  return { a, b, description: `reward of round ${changed + 1}: 0 vs 1` };
}
