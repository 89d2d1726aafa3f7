import type { RatingsData } from './RatingsData.js';
import { splitRatings } from './splitRatings.js';

/**
 * Training ratings per user (dense user index) of the split that `prepareFeatures` makes with the
 * same `evalFraction` and `seed` (its validation part is inside the training split and counts here).
 * Public information in the real-data privacy model: the user-level study chooses its contribution
 * bounds from it, never from the protected held-out ratings.
 *
 * Cost: that of {@link splitRatings}, O(count + users).
 * @example
 * trainingRatingsPerUser(data, { evalFraction: 0.5, seed: 1 })[0]; // returns user 0's training ratings, e.g. 116
 */
export function trainingRatingsPerUser(
  data: Pick<RatingsData, 'count' | 'users' | 'userIds'>,
  split: { readonly evalFraction: number; readonly seed: number },
): Int32Array {
  const role = splitRatings(data, { evalFraction: split.evalFraction, seed: split.seed });
  const counts = new Int32Array(data.userIds.length);
  for (let r = 0; r < data.count; r++) if (role[r] === 0) counts[data.users[r]!]!++;
  return counts;
}
