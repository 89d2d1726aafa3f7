// Public API of the policies module: one interface, a registry and a factory.

export {
  budgetEpsilon,
  budgetRho,
  calibrateSubsampledSigma,
  NON_PRIVATE_SPENT,
} from '../mechanisms/index.js';
export { argmaxFirst } from './argmaxFirst.js';
export type { PolicyRuntime } from './BasePolicy.js';
export {
  CLIP_COUNT_TOLERANCE,
  copyClip,
  DEFAULT_PROBABILITY_SAMPLES,
  DEFAULT_RESAMPLING_CAP,
} from './BasePolicy.js';
export { BatchedRidgePolicy } from './BatchedRidgePolicy.js';
export { createPolicy } from './createPolicy.js';
export { DgsLinUcbPolicy } from './DgsLinUcbPolicy.js';
export { decodeFloat64Array, encodeFloat64 } from './float64Codec.js';
export { HorizonExceededError } from './HorizonExceededError.js';
export { JdpLinUcbPolicy, jdpParameters } from './JdpLinUcbPolicy.js';
export { loadPolicy } from './loadPolicy.js';
export { loadPolicyFile } from './loadPolicyFile.js';
export { type MigrateSnapshotOptions, migrateSnapshot } from './migrateSnapshot.js';
export type {
  ArmProbabilities,
  InversePropensity,
  Policy,
  PolicyId,
  PolicyPrivacy,
  PolicySnapshot,
  ProbabilityOptions,
  RestoreOptions,
  SelectionWithInversePropensity,
  SelectionWithPropensity,
  SnapshotOptions,
} from './Policy.js';
export type {
  BudgetConfig,
  OptionDocs,
  OptionName,
  OptionValue,
  PolicyConfig,
  PolicyConfigFor,
  PolicyConfigMap,
  PolicyOptions,
  PolicyOptionsFor,
} from './PolicyOptions.js';
export { type PolicySpec, PolicySpecError, parsePolicyId, parsePolicySpec } from './parsePolicySpec.js';
export type { OptionRule, PolicyInfo } from './policyInfo.js';
export {
  DEFAULT_ACCOUNTANT,
  isOptionName,
  isPolicyId,
  MAX_DELTA,
  OPTION_RULES,
  POLICY_SCHEMAS,
  PRIVACY_NEUTRAL_OPTIONS,
  paperAccountant,
  policyIds,
  policyInfo,
} from './policyInfo.js';
export { resolveConfig } from './resolveConfig.js';
export { SwitchingOfulPolicy } from './SwitchingOfulPolicy.js';
export { savePolicyFile } from './savePolicyFile.js';
export { snapshotChecksum } from './snapshotChecksum.js';
export {
  SNAPSHOT_FORMAT,
  SNAPSHOT_FORMAT_VERSION,
  type SnapshotMac,
} from './snapshotFormat.js';
export { createSnapshotKey, MIN_SNAPSHOT_KEY_LENGTH, type SnapshotKey } from './snapshotKey.js';
export type { UnitAccountant, UnitGuarantee, UnitReleaseNoise, UserLevelReport } from './UserLevelPrivacy.js';
export {
  EVENT_LEVEL_STATEMENT,
  NON_PRIVATE_STATEMENT,
  unitNoise,
  unitPlanEpsilon,
  unitSettings,
  userLevelStatement,
} from './UserLevelPrivacy.js';
export { withStoredAccountant } from './withStoredAccountant.js';
export { episodeBound, ZcdpEpisodicPolicy } from './ZcdpEpisodicPolicy.js';
