/**
 * The public API of adaprivate, by name. Layers, bottom to top: random and linalg (numeric kernels),
 * privacy (accounting), policies, envs and data (environments), experiments (runner and reports).
 * This entry is the light one (no runtime dependencies; it is also the `adaprivate-core` package);
 * the experiment runner is `adaprivate/runner`, statistics and report writers `adaprivate/experiments`.
 */

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
  SelectionWithPropensity,
} from './policies/index.js';
export {
  createPolicy,
  DEFAULT_PROBABILITY_SAMPLES,
  HorizonExceededError,
  isPolicyId,
  policyIds,
  policyInfo,
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
