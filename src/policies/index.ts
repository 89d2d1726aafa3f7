// Public API of the policies module: one interface, a registry and a factory.

export { argmaxFirst } from './argmaxFirst.js';
export { DEFAULT_PROBABILITY_SAMPLES } from './BasePolicy.js';
export { BatchedRidgePolicy } from './BatchedRidgePolicy.js';
export { createPolicy } from './createPolicy.js';
export { DgsLinUcbPolicy } from './DgsLinUcbPolicy.js';
export { decodeFloat64Array, encodeFloat64 } from './float64Codec.js';
export { HorizonExceededError } from './HorizonExceededError.js';
export { JdpLinUcbPolicy, jdpParameters } from './JdpLinUcbPolicy.js';
export type {
  ArmProbabilities,
  Policy,
  PolicyId,
  PolicyPrivacy,
  PolicySnapshot,
  ProbabilityOptions,
  SelectionWithPropensity,
} from './Policy.js';
export type { PolicyConfig, PolicyOptions } from './PolicyOptions.js';
export type { OptionRule, PolicyInfo } from './policyInfo.js';
export { isPolicyId, OPTION_RULES, policyIds, policyInfo } from './policyInfo.js';
export { budgetEpsilon, budgetRho, calibrateSubsampledSigma, NON_PRIVATE_SPENT } from './privacyAdapter.js';
export { resolveConfig } from './resolveConfig.js';
export { SwitchingOfulPolicy } from './SwitchingOfulPolicy.js';
export { episodeBound, ZcdpEpisodicPolicy } from './ZcdpEpisodicPolicy.js';
