/**
 * The public API of adaprivate, by name. Layers, bottom to top: random and linalg (numeric kernels),
 * privacy (accounting), policies, envs and data (environments), evaluation (off-policy estimators),
 * experiments (runner and reports).
 * This entry is the light one (no runtime dependencies; it is also the `adaprivate-core` package);
 * the experiment runner is `adaprivate/runner`, statistics and report writers `adaprivate/experiments`,
 * decision-log files (JSON Lines, CSV) and the whole evaluation module `adaprivate/evaluation`.
 */

export type {
  AuditClaim,
  AuditMechanism,
  AuditOptions,
  AuditReport,
  NeighbourPair,
  PolicyAuditReport,
  PropertyTester,
  TesterResult,
} from './audit/index.js';
// The audit API (audit, auditMechanism, the testers) is the entry `adaprivate/audit`: it needs two
// @stdlib quantile packages, and the light core package (packages/core) has no runtime dependencies.
export type { Environment, ReplayStream } from './envs/index.js';
export {
  createSyntheticEnvironment,
  EnvironmentReplayStream,
  replayFromEnvironment,
  SyntheticEnvironment,
} from './envs/index.js';
// Off-policy evaluation on decision logs: the dependency-free part (estimators, in-memory logs, running
// a policy over a log). File loaders and writers (JSON Lines, CSV via csv-parse) are in
// `adaprivate/evaluation`, which also re-exports everything here.
export { crossFitRewardModel } from './evaluation/crossFitRewardModel.js';
export type { DecisionLog } from './evaluation/DecisionLog.js';
export type { DecisionRecord } from './evaluation/DecisionRecord.js';
export { decisionLogFromRecords } from './evaluation/decisionLogFromRecords.js';
export { directMethod } from './evaluation/directMethod.js';
export { doublyRobust } from './evaluation/doublyRobust.js';
export type { BootstrapOptions, Estimate, EstimatorId } from './evaluation/Estimate.js';
export { ESTIMATOR_IDS } from './evaluation/Estimate.js';
export type { ActionDistribution, EvaluatedPolicy } from './evaluation/EvaluatedPolicy.js';
export { evaluatedFromPolicy } from './evaluation/evaluatedFromPolicy.js';
export type { EvaluateOnLogOptions, OffPolicyEvaluation, PolicySource } from './evaluation/evaluateOnLog.js';
export { evaluateOnLog } from './evaluation/evaluateOnLog.js';
export { effectiveSampleSize } from './evaluation/importanceWeights.js';
export { ipw } from './evaluation/ipw.js';
export { linearSoftmaxPolicy } from './evaluation/linearSoftmaxPolicy.js';
export { loggedValue } from './evaluation/loggedValue.js';
export { logWarnings } from './evaluation/logWarnings.js';
export type { OpeInput } from './evaluation/OpeInput.js';
export { onPolicyValue } from './evaluation/onPolicyValue.js';
export { opeInputFromLog } from './evaluation/opeInputFromLog.js';
export { pairedRatio } from './evaluation/pairedRatio.js';
export { replay } from './evaluation/replay.js';
export { replayTarget, type SelectingPolicy } from './evaluation/replayTarget.js';
export { type LearningMode, runPolicyOnLog } from './evaluation/runPolicyOnLog.js';
export { snipw } from './evaluation/snipw.js';
export { type SyntheticLogging, syntheticDecisions } from './evaluation/syntheticDecisions.js';
export type { ReplayEvaluation } from './experiments/evaluateReplay.js';
export { evaluateReplay } from './experiments/evaluateReplay.js';
export type {
  ArmProbabilities,
  InversePropensity,
  OptionName,
  OptionValue,
  Policy,
  PolicyConfig,
  PolicyConfigFor,
  PolicyId,
  PolicyInfo,
  PolicyOptions,
  PolicyOptionsFor,
  PolicyPrivacy,
  PolicyRuntime,
  PolicySnapshot,
  ProbabilityOptions,
  RestoreOptions,
  SelectionWithPropensity,
  UnitGuarantee,
  UserLevelReport,
} from './policies/index.js';
export {
  createPolicy,
  DEFAULT_PROBABILITY_SAMPLES,
  DEFAULT_RESAMPLING_CAP,
  HorizonExceededError,
  isPolicyId,
  loadPolicy,
  loadPolicyFile,
  policyIds,
  policyInfo,
  savePolicyFile,
  unitNoise,
  unitPlanEpsilon,
} from './policies/index.js';
export type {
  Admission,
  ContributionBounds,
  EpochSpec,
  LedgerEntry,
  NoiseKind,
  NoiseSampler,
  PrivacyEvent,
  PrivacySpent,
  UnitCount,
  UnitCounterStore,
} from './privacy/index.js';
export {
  admitContribution,
  calibrateSigma,
  composedEvent,
  epochIndex,
  epsilonToRho,
  gaussianEvent,
  gaussianRho,
  groupRho,
  MemoryUnitCounters,
  PrivacyLedger,
  parallelEvent,
  selfComposedEvent,
  sigmaForRho,
  subsampledGaussianEpsilon,
  subsampledGaussianEvent,
  subsampledGaussianRdp,
  UnreachablePrivacyTargetError,
  UnsupportedPrivacyEventError,
  zcdpEvent,
  zcdpToEpsilon,
} from './privacy/index.js';
export type { Rng, RngState } from './random/index.js';
export { createRng, createSecureSeed, deriveSeed, rngFromState, SecureRng } from './random/index.js';

export { VERSION } from './version.js';
