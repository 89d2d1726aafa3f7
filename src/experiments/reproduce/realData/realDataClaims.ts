/**
 * The paper's real-data claims (SPEC section 6) checked against a real-data run: the claim specs of
 * the dataset (../claims/realDataClaimSpecs.ts) evaluated by the one claim evaluator on the run's
 * summaries, exactly like the synthetic claims.
 */
import { type Claim, evaluateClaim } from '../claims/evaluateClaim.js';
import { REAL_DATA_CLAIM_SPECS } from '../claims/realDataClaimSpecs.js';
import { type SummarySets, summaryMeasurements } from '../claims/summaryMeasurements.js';

export { findSetting } from '../claims/summaryMeasurements.js';

/** The summaries a real-data run produces: every policy at its defaults, and the amplification sweep. */
export interface RealDataSummaries extends SummarySets {
  readonly dataset: 'movielens' | 'jester';
}

/**
 * The paper's real-data claims for one dataset, with verdicts computed from `r`.
 *
 * @example
 * realDataClaims({ dataset: 'jester', epsilons: [1, 5], main, amp }).map((c) => c.verdict);
 */
export function realDataClaims(r: RealDataSummaries): Claim[] {
  const m = summaryMeasurements(r);
  return REAL_DATA_CLAIM_SPECS[r.dataset].map((spec) => evaluateClaim(spec, m));
}
