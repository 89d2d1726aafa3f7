/**
 * The public API of adaprivate, by name. Layers, bottom to top: random and linalg (numeric kernels),
 * privacy (accounting), policies, envs and data (environments), experiments (runner and reports).
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
export {
  audit,
  auditMechanism,
  gdpEpsilon,
  gdpTester,
  policyActionsMechanism,
  policyReleaseMechanism,
  rewardNeighbours,
  thresholdTester,
} from './audit/index.js';
export type { Environment, ReplayStream } from './envs/index.js';
export { createSyntheticEnvironment, SyntheticEnvironment } from './envs/index.js';
export type { Policy, PolicyId, PolicyInfo, PolicyOptions, PolicySnapshot } from './policies/index.js';
export { createPolicy, isPolicyId, policyIds, policyInfo } from './policies/index.js';
export type { LedgerEntry, PrivacyEvent, PrivacySpent } from './privacy/index.js';
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
export { createRng, createSecureSeed, deriveSeed, rngFromState } from './random/index.js';

export { VERSION } from './version.js';
