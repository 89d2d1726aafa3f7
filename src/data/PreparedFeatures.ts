import type { FeatureConstruction, FeatureConstructionInfo } from './ArmFeatureMap.js';
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
  /** Arm feature construction (docs/data.md). Default 'biased'; or 'unit-product' (ablation). */
  readonly construction: FeatureConstruction;
  /**
   * Fraction of each user's training ratings set aside as the validation part (baseline shrinkage
   * and prior weight are tuned on it; nothing is fitted on it). Default 0.2; in (0, 1).
   */
  readonly validationFraction: number;
}

/** The JSON header of a features file. */
export interface FeaturesHeader {
  readonly version: 2;
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
    /** Validation ratings (part of the training split; user and item have a feature). */
    readonly validation: number;
  };
  /** The construction and its global constants. */
  readonly construction: FeatureConstructionInfo;
  /** Baseline model mu + b_u + b_i fitted on the training split minus the validation part. */
  readonly baseline: {
    readonly mu: number;
    readonly lambda: number;
    /** Validation RMSE of every shrinkage tried. */
    readonly validationRmse: readonly { readonly lambda: number; readonly rmse: number }[];
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
  /** Arm feature dimension d (rank + 2 for 'biased', rank for 'unit-product'). */
  readonly dim: number;
  /** users x rank, row-major (left singular vectors; times the singular values for 'biased'). */
  readonly userFactors: Float64Array;
  /** items x rank, row-major (right singular vectors). */
  readonly itemFactors: Float64Array;
  /** Held-out ratings of user u: evalItems/evalRatings[evalPtr[u] .. evalPtr[u+1]). */
  readonly evalPtr: Int32Array;
  readonly evalItems: Int32Array;
  readonly evalRatings: Float32Array;
  /** Shrunk item bias b_i per item (zeros for 'unit-product'). */
  readonly itemBias: Float64Array;
  /** Validation ratings of user u: valItems/valRatings[valPtr[u] .. valPtr[u+1]). */
  readonly valPtr: Int32Array;
  readonly valItems: Int32Array;
  readonly valRatings: Float32Array;
  /** Ridge statistics on the training sample: G = sum x x^T (d x d, row-major). */
  readonly gram: Float64Array;
  /** sum scaled(rating) x, scaled(r) = (r - ratingMin) / (ratingMax - ratingMin). */
  readonly bScaled: Float64Array;
  /** Distinct training rating values, increasing. */
  readonly levels: Float64Array;
  /** levels x d: sum of x over training ratings equal to each level (for any threshold). */
  readonly bLevels: Float64Array;
}
