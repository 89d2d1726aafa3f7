// Public API of the mechanisms room: the only code that draws privacy noise (docs/privacy.md).
export { budgetEpsilon, budgetRho, type PrivacyBudget } from './budget.js';
export {
  ACCOUNTANTS,
  type AccountantName,
  calibrateGaussian,
  calibrateSubsampledSigma,
  fixedCalibration,
  jdpTreeVariance,
  type NoiseCalibration,
  type RdpOptions,
  type ReleasePlan,
} from './calibrate.js';
export {
  discreteGaussianRelease,
  discreteGridStep,
  discreteNoiseRefusal,
  MAX_DISCRETE_SIGMA_Z,
} from './discreteGaussianRelease.js';
export { GaussianMechanism, type NoiseHost } from './GaussianMechanism.js';
export { type LedgerLike, makeLedger, NON_PRIVATE_SPENT } from './PolicyLedger.js';
export { ReleaseRefusedError } from './ReleaseRefusedError.js';
