// Public API of the reproduction module: the synthetic study, its plan, analysis, claims and document.

export type {
  ClaimSpec,
  Measured,
  Measurements,
  PaperFigure,
  PartSpec,
  RulePiece,
  ScoringRule,
} from './claims/ClaimSpec.js';
export { evaluateClaim, RULE_TEXT, scorePart } from './claims/evaluateClaim.js';
export { REAL_DATA_CLAIM_SPECS } from './claims/realDataClaimSpecs.js';
export type { SummaryReading, SummarySets } from './claims/summaryMeasurements.js';
export { summaryMeasurements } from './claims/summaryMeasurements.js';
export type { SyntheticReading } from './claims/syntheticClaimSpecs.js';
export { SYNTHETIC_CLAIM_SPECS } from './claims/syntheticClaimSpecs.js';
export { syntheticMeasurements } from './claims/syntheticMeasurements.js';
export type { ReproduceSyntheticOptions, SyntheticReproduction } from './reproduceSynthetic.js';
export { reproduceSynthetic } from './reproduceSynthetic.js';
export type { ReproductionDocInput, RunTiming } from './reproductionMarkdown.js';
export { claimsTable, reproductionMarkdown } from './reproductionMarkdown.js';
export type { MethodRow, SyntheticAnalysis, SyntheticResults } from './syntheticAnalysis.js';
export { analyseSynthetic } from './syntheticAnalysis.js';
export type { NamedChart } from './syntheticCharts.js';
export { syntheticCharts } from './syntheticCharts.js';
export type { Claim } from './syntheticClaims.js';
export { REAL_DATA_CLAIMS, syntheticClaims } from './syntheticClaims.js';
export type { GroupBudget, SyntheticPlan } from './syntheticPlan.js';
export { groupBudgets, NON_PRIVATE_REFERENCE, syntheticPlan } from './syntheticPlan.js';
export type { SyntheticScale, SyntheticScaleName } from './syntheticScale.js';
export { syntheticScale } from './syntheticScale.js';
export type { ClaimPart, Estimate, Verdict, VerdictCounts } from './verdict.js';
export {
  atLeastVerdict,
  atMostVerdict,
  choiceVerdict,
  combineVerdicts,
  countsText,
  countVerdicts,
  levelVerdict,
  matchVerdict,
  minimumDetectableEffect,
  positiveVerdict,
  rangeVerdict,
  seedsForHalfWidth,
  significanceVerdict,
  signVerdict,
  VERDICTS,
} from './verdict.js';
