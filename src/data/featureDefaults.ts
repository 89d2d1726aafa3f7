import type { FeatureParams } from './PreparedFeatures.js';

/** The default feature parameters (SPEC section 5: rank 50). */
export const DEFAULT_FEATURE_PARAMS: FeatureParams = {
  rank: 50,
  evalFraction: 0.5,
  seed: 1,
  oversampling: 10,
  powerIterations: 4,
  ridgeSample: 1_000_000,
  skipBadRows: false,
  construction: 'biased',
  validationFraction: 0.2,
};
