import type { RatingsFormat } from './RatingsFormat.js';

/** Every parameter of feature preparation (all recorded in the features file header). */
export interface FeatureParams {
  /** SVD rank d. Default 50; integer >= 1. */
  readonly rank: number;
  /** Fraction of each user's ratings held out for the bandit part. Default 0.5; in (0, 1). */
  readonly evalFraction: number;
  /** Seed of the split and of the randomised SVD. Default 1; non-negative safe integer. */
  readonly seed: number;
  /** SVD oversampling. Default 10. */
  readonly oversampling: number;
  /** SVD power iterations. Default 4. */
  readonly powerIterations: number;
  /** At most this many training ratings (a seeded uniform sample) feed the warm-start ridge statistics. Default 1,000,000. */
  readonly ridgeSample: number;
  /** Whether malformed rows were skipped (true) or fatal (false). Default false. */
  readonly skipBadRows: boolean;
}

/** The JSON header of a features file. */
export interface FeaturesHeader {
  readonly version: 1;
  readonly source: {
    readonly file: string;
    readonly bytes: number;
    readonly sha256: string;
    readonly format: RatingsFormat;
  };
  readonly params: FeatureParams;
  readonly family: 'movielens' | 'jester';
  readonly ratingMin: number;
  readonly ratingMax: number;
  readonly defaultRewardMode: 'threshold' | 'scaled';
  readonly defaultThreshold: number;
  readonly counts: {
    readonly users: number;
    readonly items: number;
    readonly ratings: number;
    readonly badRows: number;
    readonly train: number;
    /** Held-out ratings usable as arms (user and item both have a feature). */
    readonly eval: number;
    /** Held-out ratings dropped because the user or the item had no training rating. */
    readonly evalDropped: number;
    readonly ridgeRows: number;
  };
  /** Singular values of the training matrix, decreasing. */
  readonly singularValues: readonly number[];
  readonly createdAt: string;
  /** Seconds spent per step (load, split, svd, features). */
  readonly timings: Readonly<Record<string, number>>;
}

/**
 * Prepared real-data features (the content of a features file): SVD factors of the training
 * ratings, the held-out ratings per user (the bandit's arms), and sufficient statistics of the
 * warm-start ridge regression.
 */
export interface PreparedFeatures {
  readonly header: FeaturesHeader;
  readonly rank: number;
  /** users x rank, row-major (left singular vectors). */
  readonly userFactors: Float64Array;
  /** items x rank, row-major (right singular vectors). */
  readonly itemFactors: Float64Array;
  /** Held-out ratings of user u: evalItems/evalRatings[evalPtr[u] .. evalPtr[u+1]). */
  readonly evalPtr: Int32Array;
  readonly evalItems: Int32Array;
  readonly evalRatings: Float32Array;
  /** Ridge statistics on the training sample: G = sum x x^T (rank x rank, row-major). */
  readonly gram: Float64Array;
  /** sum scaled(rating) x, scaled(r) = (r - ratingMin) / (ratingMax - ratingMin). */
  readonly bScaled: Float64Array;
  /** Distinct training rating values, increasing. */
  readonly levels: Float64Array;
  /** levels x rank: sum of x over training ratings equal to each level (for any threshold). */
  readonly bLevels: Float64Array;
}
