// Public API of the audit module: the three roles (mechanism, neighbouring pair, property tester),
// the policy mechanisms, and `audit` for a policy.

export type { AuditClaim, AuditMechanism, NeighbourPair } from './AuditRoles.js';
export { type AuditOptions, audit, type PolicyAuditReport } from './audit.js';
export { type AuditReport, type AuditRunOptions, auditMechanism } from './auditMechanism.js';
export { clopperPearsonLower, clopperPearsonUpper } from './clopperPearson.js';
export { gdpDelta, gdpEpsilon } from './gdpEpsilon.js';
export { GDP_SELECTION_FRACTION, gdpMuBound, gdpTester } from './gdpTester.js';
export type { PropertyTester, TesterResult } from './PropertyTester.js';
export {
  type ActionsScenario,
  type PolicyMechanismOptions,
  policyActionsMechanism,
  policyReleaseMechanism,
  releaseRounds,
} from './policyMechanisms.js';
export { rewardNeighbours } from './rewardNeighbours.js';
export { thresholdTester } from './thresholdTester.js';
export {
  TARGET_UNIT,
  type UnitNeighboursOptions,
  type UnitRewards,
  unitNeighbours,
} from './unitNeighbours.js';
export { policyUnitReleaseMechanism } from './unitReleaseMechanism.js';
