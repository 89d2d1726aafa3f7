// Public API of the data module: loaders, features and real-data environments.
import type { Environment } from '../envs/Environment.js';
import type { ReplayStream } from '../envs/ReplayStream.js';
import { RatingsEnvironment } from './RatingsEnvironment.js';
import type { RatingsEnvOptions } from './RatingsEnvOptions.js';
import { RatingsReplayStream } from './RatingsReplayStream.js';

export type { FeatureConstruction, FeatureConstructionInfo } from './ArmFeatureMap.js';
export { ArmFeatureMap, featureDim } from './ArmFeatureMap.js';
export type { CsrMatrix } from './CsrMatrix.js';
export { buildCsr } from './CsrMatrix.js';
export { DataFormatError } from './DataFormatError.js';
export { readFeaturesFile, readFeaturesHeader, sha256File, writeFeaturesFile } from './featuresFile.js';
export type { BaselineModel, RatingTriplets } from './fitBaselineModel.js';
export {
  BASELINE_LAMBDA_GRID,
  baselineRmse,
  fitBaselineModel,
  tuneBaselineModel,
} from './fitBaselineModel.js';
export type { LoadRatingsOptions } from './loadRatings.js';
export { loadRatings } from './loadRatings.js';
export type { FeatureParams, FeaturesHeader, PreparedFeatures } from './PreparedFeatures.js';
export type { StepProgress } from './prepareFeatures.js';
export { DEFAULT_FEATURE_PARAMS, prepareFeatures, resolveFeatureParams } from './prepareFeatures.js';
export type { PrepareFeaturesFileOptions } from './prepareFeaturesFile.js';
export { prepareFeaturesFile } from './prepareFeaturesFile.js';
export type { RatingsData } from './RatingsData.js';
export { RatingsEnvironment } from './RatingsEnvironment.js';
export type { RatingsEnvOptions } from './RatingsEnvOptions.js';
export type { RatingsFormat, RatingsFormatInfo } from './RatingsFormat.js';
export {
  guessRatingsFormat,
  parseRatingsFormat,
  RATINGS_FORMATS,
  ratingsFormatInfo,
} from './RatingsFormat.js';
export { RatingsReplayStream } from './RatingsReplayStream.js';
export type { RandomizedSvdOptions, TruncatedSvd } from './randomizedSvd.js';
export { randomizedSvd } from './randomizedSvd.js';
export type { RewardRule } from './ratingReward.js';
export { ratingReward, resolveRewardRule } from './ratingReward.js';
export { ratingsWarmStart } from './ratingsWarmStart.js';
export { splitRatings } from './splitRatings.js';
export { trainingRatingsPerUser } from './trainingRatingsPerUser.js';
export { PRIOR_WEIGHT_GRID, type PriorWeightChoice, tunePriorWeight } from './tunePriorWeight.js';
export { unitFeature } from './unitFeature.js';

/**
 * Full-information environment on prepared real data (see {@link RatingsEnvironment}).
 * @example
 * createRatingsEnvironment({ featuresFile: 'ml.features', armsPerRound: 5 }, 1).armsPerRound; // returns 5
 */
export function createRatingsEnvironment(options: RatingsEnvOptions, seed: number): Environment {
  return new RatingsEnvironment(options, seed);
}

/**
 * Li et al. replay stream on prepared real data (see {@link RatingsReplayStream}).
 * @example
 * createReplayStream({ featuresFile: 'ml.features', horizon: 1000 }, 1).length; // returns 1000
 */
export function createReplayStream(options: RatingsEnvOptions, seed: number): ReplayStream {
  return new RatingsReplayStream(options, seed);
}
