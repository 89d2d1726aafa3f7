/**
 * The user-level claims of the synthetic study as data (issue 25, study (a)): the paper's
 * group-privacy figures (SPEC section 6: user-level eps = 5 leaves 80.4% / 26.0% / 14.2% of
 * non-private reward at k = 1 / 5 / 10 records per user) measured on users who really arrive k
 * times, and the paper's closing remark ("dedicated user-level mechanisms are needed for heavy
 * users") measured as the gain of contribution bounds over group privacy at the same user-level
 * budget.
 */
import type { ClaimSpec, PartSpec } from '../claims/ClaimSpec.js';
import type { UserStudyVariant } from './userStudyPlan.js';

/** A quantity of the synthetic user-level study. */
export type UserLevelReading =
  /** Percent of non-private (per-seed ratios, mean and 95% CI) of a variant at k. */
  | { readonly metric: 'percent'; readonly k: number; readonly variant: UserStudyVariant }
  /** Paired gain (percentage points of non-private) of `variant` over `versus` at k. */
  | {
      readonly metric: 'gain';
      readonly k: number;
      readonly variant: UserStudyVariant;
      readonly versus: UserStudyVariant;
    };

/** The paper's group-privacy figures (percent of non-private at user-level eps = 5). */
export const PAPER_GROUP_PERCENT: readonly {
  readonly k: number;
  readonly pct: number;
  readonly text: string;
}[] = [
  { k: 1, pct: 80.4, text: '80.4%' },
  { k: 5, pct: 26.0, text: '26.0%' },
  { k: 10, pct: 14.2, text: '14.2%' },
];

type Part = PartSpec<UserLevelReading>;

/** The claims, in document order. `{userEpsilon}` is filled from the run. */
export const USER_LEVEL_CLAIM_SPECS: readonly ClaimSpec<UserLevelReading>[] = [
  {
    id: 'user-level-group-privacy',
    plain:
      'When every user arrives k times, how much reward is left if each user (all k records) is protected by group privacy?',
    title:
      'Synthetic users, group privacy at user-level eps = {userEpsilon}: paper 80.4% (k = 1), 26.0% (k = 5), 14.2% (k = 10) of non-private',
    paper:
      'Protecting all k records of a user costs k^2 rho; user-level eps = 5, delta = 1e-5: 80.4% (k = 1), 26.0% (k = 5), 14.2% (k = 10) of non-private.',
    parts: PAPER_GROUP_PERCENT.flatMap((g): Part[] => [
      {
        label: `k = ${g.k}: group privacy, zCDP (k^2 rho), % of non-private`,
        paper: { kind: 'value', value: g.pct, text: g.text },
        reads: { metric: 'percent', k: g.k, variant: 'group-zcdp' },
        score: 'effect',
        whenAbsent: 'omit',
      },
      {
        label: `k = ${g.k}: group privacy, exact (k mu), % of non-private`,
        paper: { kind: 'value', value: g.pct, text: g.text },
        reads: { metric: 'percent', k: g.k, variant: 'group-exact' },
        score: 'effect',
        whenAbsent: 'omit',
      },
    ]),
    rule: [{ standard: 'effect' }],
    charts: ['user-level-synthetic'],
    note: 'Each user arrives k times at random rounds of the run (SyntheticUsersEnvironment); the zCDP part runs the paper calibration (per-record rho = rho_u / k^2), the exact part the Gaussian-DP one (per-record mu = mu_u / k).',
  },
  {
    id: 'user-level-bounds',
    plain:
      'Does a user-level policy with contribution bounds keep more reward than group privacy, at the same guarantee per user?',
    title:
      'Synthetic users: contribution bounds (c = 1, m = k) vs group privacy at user-level eps = {userEpsilon}',
    paper:
      '"Dedicated user-level mechanisms are needed for heavy users" (the paper\'s closing sentence; no figure).',
    parts: [5, 10].flatMap((k): Part[] => [
      {
        label: `k = ${k}: bounds vs group privacy, zCDP (points of non-private)`,
        paper: { kind: 'sign', text: 'needed (no figure)' },
        reads: { metric: 'gain', k, variant: 'bounds-zcdp', versus: 'group-zcdp' },
        score: 'positive',
        whenAbsent: 'omit',
      },
      {
        label: `k = ${k}: bounds vs group privacy, exact (points of non-private)`,
        paper: { kind: 'sign', text: 'needed (no figure)' },
        reads: { metric: 'gain', k, variant: 'bounds-exact', versus: 'group-exact' },
        score: 'positive',
        whenAbsent: 'omit',
      },
    ]),
    rule: [
      'A part is reproduced when the 95% CI of the paired gain (per seed: percent of non-private with bounds minus with group privacy, same rounds) lies above 0, opposite when it lies below 0, inconclusive when it contains 0.',
    ],
    charts: ['user-level-synthetic'],
  },
];
