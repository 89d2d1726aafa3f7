/**
 * The public API of adaprivate, by name. Layers, bottom to top: random and linalg (numeric kernels),
 * privacy (accounting), policies, envs and data (environments), experiments (runner and reports).
 */

export type { Environment, ReplayStream } from './envs/index.js';
export { createSyntheticEnvironment, SyntheticEnvironment } from './envs/index.js';
export type {
  ArmProbabilities,
  Policy,
  PolicyId,
  PolicyInfo,
  PolicyOptions,
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
