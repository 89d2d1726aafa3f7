/**
 * The claims of the paper (SPEC section 6) that the synthetic study can test, each set side by
 * side with our measurement and given a verdict computed from the numbers (never written by hand):
 * the claim specs (claims/syntheticClaimSpecs.ts) evaluated by the one claim evaluator
 * (claims/evaluateClaim.ts) on the analysis' measurements. Claims that need real data are listed as
 * covered by `adaprivate reproduce movielens|jester`.
 */
import { type Claim, evaluateClaim } from './claims/evaluateClaim.js';
import { SYNTHETIC_CLAIM_SPECS } from './claims/syntheticClaimSpecs.js';
import { syntheticMeasurements } from './claims/syntheticMeasurements.js';
import type { SyntheticAnalysis } from './syntheticAnalysis.js';

export type { Claim } from './claims/evaluateClaim.js';

/** The claims that need real data, the command that tests each and the document it writes (beside REPRODUCTION.md). */
export const REAL_DATA_CLAIMS: readonly {
  readonly paper: string;
  readonly command: string;
  readonly doc: string;
}[] = [
  {
    paper: 'Amplification on MovieLens: +4.6% (eps = 1), +1.3% (eps = 5) over no amplification.',
    command: 'adaprivate reproduce movielens',
    doc: 'REPRODUCTION-movielens.md',
  },
  {
    paper:
      'MovieLens eps = 1: UCB CTR dips 0.73 -> 0.67 then 0.71; TS climbs 0.66 -> 0.72 and overtakes at ~800 effective steps.',
    command: 'adaprivate reproduce movielens',
    doc: 'REPRODUCTION-movielens.md',
  },
  {
    paper:
      'MovieLens: event-level methods 71.7-72.6% at eps = 1; TS up to +6.5% over AdaC-OFUL-zCDP at eps = 10.',
    command: 'adaprivate reproduce movielens',
    doc: 'REPRODUCTION-movielens.md',
  },
  {
    paper: 'Jester: TS best at every eps; +2.9% over zCDP-Episodic, +3.6% over AdaPrivate-UCB at eps = 1.',
    command: 'adaprivate reproduce jester',
    doc: 'REPRODUCTION-jester.md',
  },
];

/**
 * Evaluates every synthetic-testable claim.
 *
 * @example
 * syntheticClaims(analysis).map((c) => c.verdict); // returns e.g. ['not reproduced', 'mixed', ...]
 */
export function syntheticClaims(a: SyntheticAnalysis): Claim[] {
  const m = syntheticMeasurements(a);
  return SYNTHETIC_CLAIM_SPECS.map((spec) => evaluateClaim(spec, m));
}
