// Public API of the privacy module: events, accountants (zCDP, RDP), conversions, calibration, ledger.
export type { Admission, AdmissionResult, ContributionBounds, UnitCount } from './admitContribution.js';
export { admitContribution } from './admitContribution.js';

export type {
  AccountantName,
  AccountantOptions,
  GaussianPlan,
  NoiseCalibration,
  NoiseDistribution,
  PlanEpsilon,
} from './calibrateGaussianNoise.js';
export { ACCOUNTANT_NAMES, calibrateGaussianNoise, gaussianPlanEpsilon } from './calibrateGaussianNoise.js';
export type { Calibration } from './calibrateSigma.js';
export { calibrateSigma, epsilonFloor } from './calibrateSigma.js';
export { calibrateSubsampledSigma } from './calibrateSubsampledSigma.js';
export type { Conversion, RdpEpsilon } from './conversion.js';
export { assertConversion, assertDelta, rdpOrderToEpsilon, rdpToEpsilon } from './conversion.js';
export type { CreateAccountantOptions, PrivacyAccountant } from './createAccountant.js';
export { createAccountant } from './createAccountant.js';
export {
  DISCRETE_ETA_PER_MU2,
  DISCRETE_GRID_BITS,
  discreteGaussianDeltaMargin,
} from './discreteGaussianMargin.js';
export type { EpochSpec } from './epochIndex.js';
export { describeEpoch, epochIndex } from './epochIndex.js';
export type { EventCost } from './eventCost.js';
export { eventCost, eventRho, needsRdp } from './eventCost.js';
export type { PrivacyEvent, PrivacyEventKind } from './events.js';
export {
  assertPrivacyEvent,
  composedEvent,
  describeEvent,
  gaussianEvent,
  parallelEvent,
  selfComposedEvent,
  subsampledGaussianEvent,
  zcdpEvent,
} from './events.js';
export { gaussianDelta, gaussianEpsilon, gaussianMuForTarget } from './gaussianDp.js';
export type {
  LedgerEntry,
  NoiseKind,
  NoiseSampler,
  PrivacyLedgerJSON,
  PrivacyLedgerOptions,
  PrivacySpent,
} from './ledger.js';
export { PrivacyLedger } from './ledger.js';
export { MemoryUnitCounters } from './MemoryUnitCounters.js';
export type { OrderSpec } from './orders.js';
export { EXTENDED_ORDERS, PAPER_ORDERS, resolveOrders } from './orders.js';
export type {
  RdpGuarantee,
  ResolvedSettings,
  SubsampledGaussianSettings,
} from './subsampledGaussianEpsilon.js';
export { epsilonForSigma, resolveSettings, subsampledGaussianEpsilon } from './subsampledGaussianEpsilon.js';
export { subsampledGaussianDelta, subsampledGaussianExactEpsilon } from './subsampledGaussianExact.js';
export { subsampledGaussianRdp, subsampledGaussianRdpCurve } from './subsampledGaussianRdp.js';
export type { UnitCounterStore } from './UnitCounterStore.js';
export type { UnitCompositions } from './UnitLedger.js';
export { UnitLedger } from './UnitLedger.js';
export { UnreachablePrivacyTargetError } from './UnreachablePrivacyTargetError.js';
export { UnsupportedPrivacyEventError } from './UnsupportedPrivacyEventError.js';
export {
  epsilonToRho,
  gaussianRho,
  groupRho,
  perRecordRho,
  sigmaForRho,
  zcdpToEpsilon,
  zcdpToEpsilonUnchecked,
} from './zcdp.js';
