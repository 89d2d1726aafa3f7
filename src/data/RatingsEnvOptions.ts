/**
 * JSON-safe options of the real-data environments (full information and replay). Workers rebuild
 * environments from these plain objects, so every field is a string, number or boolean.
 */
export interface RatingsEnvOptions {
  /** Path of a prepared features file (`adaprivate data prepare`). Required. */
  readonly featuresFile: string;
  /** Candidate arms per round, K. Default 5; integer >= 2. */
  readonly armsPerRound?: number;
  /**
   * How a rating becomes a reward in [0, 1]. `threshold` (default): 1{rating >= rewardThreshold};
   * `scaled`: (rating - min) / (max - min) with the dataset's rating range.
   */
  readonly rewardMode?: 'threshold' | 'scaled';
  /**
   * Threshold of `threshold` mode, in the dataset's rating units. Default: the dataset's own
   * default recorded in the features file (MovieLens 4, Jester 0).
   */
  readonly rewardThreshold?: number;
  /** Rounds served (0 or omitted: the number of eligible evaluation users x 10, see docs/data.md). */
  readonly horizon?: number;
  /**
   * Warm start (SPEC section 5): the policies' prior mean theta_0 is the ridge regression of the
   * reward on the features over the training split (`ratingsWarmStart`), which is disjoint from the
   * ratings that give bandit rewards. The runner applies it to every cell whose params do not set
   * `priorMean`. Default false (cold start, theta_0 = 0).
   */
  readonly warmStart?: boolean;
  /**
   * Weight w of the warm-start prior (A = w I + sum x x^T, b = w theta_0 + released sums; the
   * runner passes it as the policies' `lambda`, which with a prior mean is exactly this weight).
   * `'tuned'` (default): chosen per budget on the validation part of the training split by
   * `tunePriorWeight`; a positive number: that weight. Ignored without `warmStart`.
   */
  readonly priorWeight?: number | 'tuned';
  /**
   * How each round's user is drawn (among the users with at least K held-out ratings): `'uniform'`
   * (default, the paper's protocol: every user equally often) or `'activity'` (a user with n held-out
   * ratings n times as often as a user with one: heavy users arrive often and light ones rarely, as
   * in a log; the user-level privacy study, docs/REPRODUCTION-movielens.md). Every round's user is
   * its privacy unit (`unit()`, `'u<dense user index>'`).
   */
  readonly userArrivals?: 'uniform' | 'activity';
}
