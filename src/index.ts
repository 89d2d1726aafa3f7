/**
 * The public API of adaprivate, by name. Layers, bottom to top: random and linalg (numeric kernels),
 * privacy (accounting), policies, envs and data (environments), experiments (runner and reports).
 * This entry is the light one (no runtime dependency; it is also the `adaprivate-core` package);
 * the experiment runner is `adaprivate/runner`, off-policy evaluation `adaprivate/evaluation`,
 * statistics and report writers `adaprivate/experiments`.
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
// The audit API (audit, auditMechanism, the testers) lives in src/audit/index.ts: it needs two
// @stdlib quantile packages, and the light core package (packages/core) has no runtime dependencies.
export type { Environment, ReplayStream } from './envs/index.js';
export {
  createSyntheticEnvironment,
  EnvironmentReplayStream,
  replayFromEnvironment,
  SyntheticEnvironment,
} from './envs/index.js';
export type { ReplayEvaluation } from './experiments/evaluateReplay.js';
export { evaluateReplay } from './experiments/evaluateReplay.js';
export type {
  ArmProbabilities,
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
  PolicySnapshot,
  ProbabilityOptions,
  RestoreOptions,
  SelectionWithPropensity,
} from './policies/index.js';
export {
  createPolicy,
  DEFAULT_PROBABILITY_SAMPLES,
  HorizonExceededError,
  isPolicyId,
  loadPolicy,
  loadPolicyFile,
  policyIds,
  policyInfo,
  savePolicyFile,
} from './policies/index.js';
export type { LedgerEntry, NoiseKind, PrivacyEvent, PrivacySpent } from './privacy/index.js';
export {
  calibrateSigma,
  composedEvent,
  epsilonToRho,
  gaussianEvent,
  gaussianRho,
  groupRho,
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
