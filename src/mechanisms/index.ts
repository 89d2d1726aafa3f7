// Public API of the mechanisms room: the only code that draws privacy noise (docs/privacy.md).

export { ACCOUNTANT_NAMES, type AccountantName } from '../privacy/index.js';
export { budgetEpsilon, budgetRho, type PrivacyBudget } from './budget.js';
export {
  type CalibrationOptions,
  calibrateGaussian,
  calibrateSubsampledSigma,
  exactReport,
  fixedCalibration,
  jdpTreeVariance,
  type NoiseCalibration,
  type ReleasePlan,
} from './calibrate.js';
export {
  discreteGaussianRelease,
  discreteGridStep,
  discreteNoiseRefusal,
  MAX_DISCRETE_SIGMA_Z,
} from './discreteGaussianRelease.js';
export { GaussianMechanism, type NoiseHost } from './GaussianMechanism.js';
export {
  type AccountedSpent,
  type ExactReport,
  type LedgerLike,
  makeLedger,
  NON_PRIVATE_SPENT,
} from './PolicyLedger.js';
export { ReleaseRefusedError } from './ReleaseRefusedError.js';
