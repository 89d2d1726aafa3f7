// Public API of the evaluation module: decision logs (format, loaders, writer, synthetic generator),
// off-policy estimators with bootstrap intervals, and running an evaluated policy over a log.

export { combineRuns, repeatReplicates } from './combineRuns.js';
export { combineSlotRuns } from './combineSlotRuns.js';
export { crossFitRewardModel, fitRidgeRewardModel, type RewardModelOptions } from './crossFitRewardModel.js';
export type { DecisionLog } from './DecisionLog.js';
export { DecisionLogBuilder } from './DecisionLogBuilder.js';
export { type DecisionRecord, PROPENSITY_KINDS, type PropensityKind } from './DecisionRecord.js';
export { decisionLogFromRecords } from './decisionLogFromRecords.js';
export { directMethod, modelValues } from './directMethod.js';
export { doublyRobust } from './doublyRobust.js';
export type { BootstrapOptions, Estimate, EstimatorId } from './Estimate.js';
export { ESTIMATOR_IDS, ESTIMATOR_NAMES } from './Estimate.js';
export type { ActionDistribution, EvaluatedPolicy } from './EvaluatedPolicy.js';
export {
  DEFAULT_EVALUATION_SAMPLES,
  type EvaluatedFromPolicyOptions,
  evaluatedFromPolicy,
} from './evaluatedFromPolicy.js';
export type {
  EvaluateOnLogOptions,
  OffPolicyEvaluation,
  PolicySource,
  RelativeEstimate,
} from './evaluateOnLog.js';
export { evaluateOnLog } from './evaluateOnLog.js';
export {
  type EvaluationMechanism,
  type EvaluationMechanismOptions,
  evaluationMechanism,
} from './evaluationMechanism.js';
export { type FeatureNormSummary, featureNormSummary } from './featureNormSummary.js';
export { firstContributions, type KeptContributions } from './firstContributions.js';
export { effectiveSampleSize, importanceWeights } from './importanceWeights.js';
export { type ImportedLog, type ImportPositionLogOptions, importPositionLog } from './importPositionLog.js';
export { ipw } from './ipw.js';
export type { LinearSoftmaxOptions, LinearSoftmaxPolicy } from './linearSoftmaxPolicy.js';
export { linearSoftmaxPolicy } from './linearSoftmaxPolicy.js';
export type { DecisionLogFormat, LoadDecisionLogOptions } from './loadDecisionLog.js';
export { decisionLogFormatOf, loadDecisionLog } from './loadDecisionLog.js';
export { loadTarget } from './loadTarget.js';
export { loggedValue } from './loggedValue.js';
export { DEFAULT_TINY_PROPENSITY, isUniformLogging, logWarnings } from './logWarnings.js';
export { checkOpeInput, type OpeInput } from './OpeInput.js';
export { onPolicyValue } from './onPolicyValue.js';
export { evaluableRounds, hasPropensity, opeInputFromLog } from './opeInputFromLog.js';
export { pairedRatio } from './pairedRatio.js';
export { privateDoublyRobust } from './privateDoublyRobust.js';
export { type PrivateEstimate, type PrivateEstimatesOptions, privateEstimates } from './privateEstimates.js';
export { type PrivateRewardModelOptions, privateRewardModel } from './privateRewardModel.js';
export { privateUnitDoublyRobust } from './privateUnitDoublyRobust.js';
export { type PrivateUnitEstimatesOptions, privateUnitEstimates } from './privateUnitEstimates.js';
export {
  type PrivateUnitRewardModelOptions,
  privateUnitRewardModel,
  unitRewardModelCoordinates,
} from './privateUnitRewardModel.js';
export { percentileInterval, ratioBootstrap, sortedQuantile } from './ratioBootstrap.js';
export { readCsvDecisions } from './readCsvDecisions.js';
export type { LocatedDecision, ReadDecisionsOptions } from './readJsonlDecisions.js';
export { readJsonlDecisions } from './readJsonlDecisions.js';
export { replay } from './replay.js';
export { replayTarget, type SelectingPolicy } from './replayTarget.js';
export { type LearningMode, type RunPolicyOptions, runPolicyOnLog } from './runPolicyOnLog.js';
export { type SlotEstimate, type SlotIpwResult, slotIpw } from './slotIpw.js';
export { snipw } from './snipw.js';
export type { SyntheticLogging, SyntheticLogOptions } from './syntheticDecisions.js';
export {
  DEFAULT_SYNTHETIC_LOGGING,
  syntheticDecisions,
  syntheticLoggingPolicy,
} from './syntheticDecisions.js';
export { type TargetRecord, targetFromRecords } from './targetFromRecords.js';
export {
  PROBABILITY_TOLERANCE,
  type RecordPosition,
  validateDecisionRecord,
} from './validateDecisionRecord.js';
export { decisionCsvHeader, decisionCsvRows, writeDecisionLog } from './writeDecisionLog.js';
export { ZERO_REWARD_NOTE, zeroRewardInterval } from './zeroRewardInterval.js';
