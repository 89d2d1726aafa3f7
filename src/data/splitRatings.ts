import { createRng } from '../random/index.js';
import type { RatingsData } from './RatingsData.js';

/** Options of {@link splitRatings}. */
export interface SplitRatingsOptions {
  /**
   * Fraction of each user's ratings held out for the bandit (evaluation) part. Default 0.5;
   * a number in (0, 1). A user with n ratings gets floor(n * evalFraction) held out.
   */
  readonly evalFraction?: number;
  /** Seed of the split. Required; non-negative safe integer. */
  readonly seed: number;
  /** Name of the generator stream. Default 'split'. */
  readonly stream?: string;
  /** Only these ratings take part (the others get role 0 and do not count in n). Default: all. */
  readonly among?: (k: number) => boolean;
}

/**
 * Splits ratings into a feature (training) part and a bandit (evaluation) part, disjoint, per user:
 * each user's ratings are shuffled with a seeded generator and the first floor(n * evalFraction)
 * are held out. Returns role[r] = 1 for evaluation ratings and 0 for training ratings.
 *
 * Cost: O(count + users) time; 5 bytes per rating.
 * @example
 * const role = splitRatings(data, { seed: 1 });
 * role.length === data.count; // returns true
 */
export function splitRatings(
  data: Pick<RatingsData, 'count' | 'users' | 'userIds'>,
  options: SplitRatingsOptions,
): Uint8Array {
  const f = options.evalFraction ?? 0.5;
  if (!(f > 0 && f < 1)) throw new Error(`splitRatings: evalFraction must be a number in (0, 1). Got ${f}.`);
  const rng = createRng(options.seed, options.stream ?? 'split');
  const nUsers = data.userIds.length;
  const ptr = new Int32Array(nUsers + 1);
  const among = options.among ?? (() => true);
  for (let r = 0; r < data.count; r++) if (among(r)) ptr[data.users[r]! + 1]!++;
  for (let u = 0; u < nUsers; u++) ptr[u + 1]! += ptr[u]!;
  const next = ptr.slice(0, nUsers);
  const order = new Int32Array(ptr[nUsers]!);
  for (let r = 0; r < data.count; r++) if (among(r)) order[next[data.users[r]!]!++] = r;
  const role = new Uint8Array(data.count);
  for (let u = 0; u < nUsers; u++) {
    const s = ptr[u]!;
    const n = ptr[u + 1]! - s;
    const held = Math.floor(n * f);
    // partial Fisher-Yates: the first `held` positions get a uniform random subset
    for (let i = 0; i < held; i++) {
      const j = i + rng.integer(n - i);
      const t = order[s + i]!;
      order[s + i] = order[s + j]!;
      order[s + j] = t;
      role[order[s + i]!] = 1;
    }
  }
  return role;
}
