import type { FeaturesHeader } from './PreparedFeatures.js';
import type { RatingsEnvOptions } from './RatingsEnvOptions.js';

/** A resolved rating-to-reward rule. */
export interface RewardRule {
  readonly mode: 'threshold' | 'scaled';
  /** Threshold of `threshold` mode (rating units). */
  readonly threshold: number;
  readonly ratingMin: number;
  readonly ratingMax: number;
}

/**
 * Resolves the reward rule of environment options against a features header (defaults: MovieLens
 * 1{rating >= 4}, Jester scaled). Throws naming the option for an unknown mode or a threshold outside
 * the rating range.
 * @example
 * resolveRewardRule({ featuresFile: 'x' }, header).threshold; // returns 4 for MovieLens
 */
export function resolveRewardRule(options: RatingsEnvOptions, header: FeaturesHeader): RewardRule {
  const mode = options.rewardMode ?? header.defaultRewardMode;
  if (mode !== 'threshold' && mode !== 'scaled') {
    throw new Error(
      `ratings environment: rewardMode must be 'threshold' or 'scaled'. Got ${JSON.stringify(mode)}.`,
    );
  }
  const threshold = options.rewardThreshold ?? header.defaultThreshold;
  if (!(threshold >= header.ratingMin && threshold <= header.ratingMax)) {
    throw new Error(
      `ratings environment: rewardThreshold must be a number in [${header.ratingMin}, ${header.ratingMax}]. Got ${threshold}.`,
    );
  }
  return { mode, threshold, ratingMin: header.ratingMin, ratingMax: header.ratingMax };
}

/**
 * The reward in [0, 1] of a rating: 1{rating >= threshold} or (rating - min) / (max - min).
 * Never throws.
 * @example
 * ratingReward({ mode: 'threshold', threshold: 4, ratingMin: 0.5, ratingMax: 5 }, 4.5); // returns 1
 */
export function ratingReward(rule: RewardRule, rating: number): number {
  if (rule.mode === 'threshold') return rating >= rule.threshold ? 1 : 0;
  const r = (rating - rule.ratingMin) / (rule.ratingMax - rule.ratingMin);
  return Math.min(1, Math.max(0, r));
}
