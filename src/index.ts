/**
 * The public API of adaprivate, by name. Layers, bottom to top: random and linalg (numeric kernels),
 * privacy (accounting), policies, envs and data (environments), experiments (runner and reports).
 * The HTTP client is here (no server dependencies); the server is `adaprivate/server` (`createServer`)
 * and its storage `adaprivate/store`, so that importing the library never loads Fastify or SQLite.
 */

export type { AdaPrivateClientOptions } from './client/index.js';
export { AdaPrivateClient, AdaPrivateClientError } from './client/index.js';
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
