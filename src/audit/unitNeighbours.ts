/**
 * The neighbouring inputs of a user-level audit: two datasets that differ in EVERY reward of one
 * unit (user), everything public held fixed (the rounds, the features, which unit each round
 * belongs to). In input `a` the target unit's rewards are all 0: they add nothing to any released
 * sum, as if the unit's rewards were removed (its rounds and features are public and stay); in `b`
 * they are all 1, the largest contribution a unit can make with rewards in [0, 1]. The target
 * arrives past its bounds on purpose: `c + 1` rewards in each release it takes part in and `m + 1`
 * releases, so an audit sees whether the policy enforces its contribution bounds.
 */
import { createRng } from '../random/index.js';
import type { NeighbourPair } from './AuditRoles.js';

/** Rewards with the unit of each round (the data of a user-level audit). */
export interface UnitRewards {
  readonly rewards: Float64Array;
  readonly units: readonly string[];
}

/** Shape of {@link unitNeighbours}. */
export interface UnitNeighboursOptions {
  /** Rewards per release of the policy, B. Positive integer. */
  readonly batchSize: number;
  /** The policy's bound c (rewards of one unit per release). Positive integer. */
  readonly contributionsPerRelease: number;
  /** The policy's bound m (releases per epoch). Positive integer. */
  readonly releasesPerEpoch: number;
  /** Rewards of the other units: a number in [0, 1] or 'random' (uniform, stream 'audit-rewards'). Default 0.5. */
  readonly fill?: number | 'random';
  readonly seed?: number;
}

/** The id of the unit whose rewards differ. */
export const TARGET_UNIT = 'target';

/**
 * The pair: m + 1 segments, one per release the target arrives in; each segment is the target's
 * c + 1 rewards followed by B - c rewards of other units, each a unit of its own (the last segment
 * has B of them, as the target is past its m releases there and a release still needs B rewards).
 * A policy that keeps c of the target's rewards per release releases exactly at each segment's end.
 *
 * @example
 * const p = unitNeighbours({ batchSize: 4, contributionsPerRelease: 1, releasesPerEpoch: 1 });
 * p.a.units; // returns ['target', 'target', 'f0', 'f1', 'f2', 'target', 'target', 'f3', 'f4', 'f5', 'f6']
 * p.b.rewards[0]; // returns 1 (a.rewards[0] is 0)
 */
export function unitNeighbours(options: UnitNeighboursOptions): NeighbourPair<UnitRewards> {
  const { batchSize: b, contributionsPerRelease: c, releasesPerEpoch: m } = options;
  for (const [name, v] of [
    ['batchSize', b],
    ['contributionsPerRelease', c],
    ['releasesPerEpoch', m],
  ] as const) {
    if (!Number.isSafeInteger(v) || v < 1)
      throw new RangeError(`audit: ${name} must be a positive integer. Got ${v}.`);
  }
  if (c >= b) {
    throw new RangeError(
      `audit: contributionsPerRelease must be below batchSize (${b}) for a unit audit (the other units fill each release). Got ${c}.`,
    );
  }
  const fill = options.fill ?? 0.5;
  if (fill !== 'random' && !(typeof fill === 'number' && fill >= 0 && fill <= 1)) {
    throw new RangeError(`audit: fill must be a number in [0, 1] or 'random'. Got ${String(fill)}.`);
  }
  const rng = createRng(options.seed ?? 0, 'audit-rewards');
  const units: string[] = [];
  const base: number[] = [];
  const target: number[] = [];
  let other = 0;
  for (let s = 0; s <= m; s++) {
    for (let i = 0; i <= c; i++) {
      target.push(units.length);
      units.push(TARGET_UNIT);
      base.push(0);
    }
    const others = s === m ? b : b - c;
    for (let i = 0; i < others; i++) {
      units.push(`f${other++}`);
      base.push(fill === 'random' ? rng.uniform() : fill);
    }
  }
  const a = Float64Array.from(base);
  const bb = Float64Array.from(base);
  for (const t of target) bb[t] = 1;
  return {
    a: { rewards: a, units },
    b: { rewards: bb, units },
    description: `every reward of one unit (${target.length} rewards: ${c + 1} in each of ${m + 1} releases, bounds c = ${c}, m = ${m}): 0 (removed from every sum) vs 1`,
  };
}
