/**
 * The experiments of the synthetic user-level study (issue 25, study (a)): for every k (arrivals of
 * each user), AdaPrivate-TS protecting each user at the user-level budget (eps_u, delta) in up to
 * four ways, and the non-private reference LinTS on the same rounds:
 *
 * - `group-zcdp`: the paper's way. An event-level policy whose per-record budget makes every user's
 *   k records (eps_u, delta) by group privacy in zCDP: rho_record = rho_u / k^2 (the paper's table).
 * - `group-exact`: the same with the exact (Gaussian DP) accountant: a mu-GDP mechanism is (k mu)-GDP
 *   for k records, so mu_record = mu_u / k. Needs the policies' `accountant` option.
 * - `bounds-zcdp` / `bounds-exact`: a user-level policy (`privacyUnit: 'user'`) with contribution
 *   bounds c = 1 reward per release and m = k releases per epoch (the run's lifetime), its noise
 *   calibrated for the person (sensitivity c per release, m releases: sigma = c sqrt(m) / sqrt(2 rho_u)
 *   in zCDP, mu_u = c sqrt(m) / sigma exactly). A user's second reward in one batch is dropped.
 *
 * Each (k, variant) is one experiment config (validated, recorded verbatim in the results).
 */
import { createPolicy, policyInfo } from '../../../policies/index.js';
import {
  calibrateGaussianNoise,
  epsilonToRho,
  gaussianPlanEpsilon,
  perRecordRho,
  sigmaForRho,
  zcdpToEpsilon,
} from '../../../privacy/index.js';
import type { ExperimentConfig, ParamValue } from '../../types.js';
import { validateExperimentConfig } from '../../validateExperimentConfig.js';
import type { UserStudyScale } from './userStudyScale.js';

export type UserStudyVariant = 'group-zcdp' | 'group-exact' | 'bounds-zcdp' | 'bounds-exact';

/** Every variant, in table order. */
export const USER_STUDY_VARIANTS: readonly UserStudyVariant[] = [
  'group-zcdp',
  'group-exact',
  'bounds-zcdp',
  'bounds-exact',
];

/** How each variant is described in tables. */
export const VARIANT_LABEL: Readonly<Record<UserStudyVariant, string>> = {
  'group-zcdp': 'group privacy, zCDP (k^2 rho)',
  'group-exact': 'group privacy, exact (k mu)',
  'bounds-zcdp': 'contribution bounds, zCDP',
  'bounds-exact': 'contribution bounds, exact',
};

/** One private experiment of the plan. */
export interface UserStudyCell {
  readonly k: number;
  readonly variant: UserStudyVariant;
  /** The epsilon the policy is built with (per record for group privacy, per user for bounds). */
  readonly epsilon: number;
  /** Noise std per release (sensitivity-1 units), as calibrated. */
  readonly sigma: number;
  /** Bounds of the user-level variants (null for group privacy). */
  readonly bounds: { readonly contributionsPerRelease: number; readonly releasesPerEpoch: number } | null;
  readonly config: ExperimentConfig;
}

export interface UserStudyPlan {
  readonly scale: UserStudyScale;
  /** The non-private reference (LinTS) per k, on the same rounds. */
  readonly references: readonly { readonly k: number; readonly config: ExperimentConfig }[];
  readonly cells: readonly UserStudyCell[];
  /** Variants left out because the policies lack an option they need (with the reason). */
  readonly skipped: readonly { readonly variant: UserStudyVariant; readonly reason: string }[];
  /** User-level zCDP rho_u and GDP mu_u of (eps_u, delta). */
  readonly userRho: number;
  readonly userMu: number;
}

/**
 * Whether AdaPrivate-TS accepts `accountant: 'exact'` in this build (it is listed in the schema
 * before the policies can calibrate with it): a policy is built, and its refusal is the answer.
 *
 * @example
 * exactAccountantAvailable(); // returns false until the policies calibrate with the exact accountant
 */
export function exactAccountantAvailable(): boolean {
  if (!policyInfo('adaprivate-ts').options.includes('accountant')) return false;
  try {
    createPolicy('adaprivate-ts', {
      dim: 1,
      horizon: 1,
      seed: 1,
      epsilon: 1,
      delta: 1e-5,
      accountant: 'exact',
    });
    return true;
  } catch (e) {
    if (e instanceof RangeError && /accountant/.test(e.message)) return false;
    throw e;
  }
}

/**
 * Builds the study's configs for a scale. `options` are the ids of the options AdaPrivate-TS
 * accepts (default: its schema table's): variants whose options are missing are skipped and listed.
 *
 * @example
 * userStudyPlan(userStudyScale('full')).references.length; // returns 3 (k = 1, 5, 10)
 */
export function userStudyPlan(
  scale: UserStudyScale,
  options: readonly string[] = policyInfo('adaprivate-ts').options,
  exactAvailable: boolean = exactAccountantAvailable(),
): UserStudyPlan {
  const hasAccountant = options.includes('accountant');
  const hasUnits = options.includes('privacyUnit');
  const skipped: { variant: UserStudyVariant; reason: string }[] = [];
  if (!hasAccountant || !exactAvailable) {
    const reason = hasAccountant
      ? "the policies refuse accountant 'exact' in this build"
      : 'the policies have no `accountant` option';
    for (const v of ['group-exact', 'bounds-exact'] as const) skipped.push({ variant: v, reason });
  }
  if (!hasUnits) {
    for (const v of ['bounds-zcdp', 'bounds-exact'] as const)
      if (!skipped.some((s) => s.variant === v))
        skipped.push({ variant: v, reason: 'the policies have no `privacyUnit` option' });
  }
  const userRho = epsilonToRho(scale.userEpsilon, scale.delta);
  // the exact accountant's sigma for one sensitivity-1 release at (eps_u, delta): mu_u = 1 / sigma
  const one = { sensitivity: 1, compositions: 1, q: 1 };
  const userMu =
    1 / calibrateGaussianNoise({ epsilon: scale.userEpsilon, delta: scale.delta }, one, 'exact').sigma;
  const base = (k: number, name: string) => ({
    name,
    env: { ...scale.env, arrivalsPerUnit: k },
    protocol: 'full-information',
    delta: scale.delta,
    seeds: scale.seeds,
    horizon: scale.horizon,
    checkpoints: scale.checkpoints,
  });
  const zcdp: Record<string, ParamValue> = hasAccountant ? { accountant: 'zcdp' } : {};
  const references = scale.ks.map((k) => ({
    k,
    config: validateExperimentConfig({
      ...base(k, `user-level-k${k}-reference`),
      policies: [{ policy: 'lints' }],
    }),
  }));
  const cells: UserStudyCell[] = [];
  for (const k of scale.ks) {
    const add = (
      variant: UserStudyVariant,
      epsilon: number,
      sigma: number,
      params: Record<string, ParamValue>,
      bounds: UserStudyCell['bounds'],
    ) => {
      if (skipped.some((s) => s.variant === variant)) return;
      const config = validateExperimentConfig({
        ...base(k, `user-level-k${k}-${variant}`),
        policies: [{ policy: 'adaprivate-ts', params: { batchSize: scale.batchSize, ...params } }],
        epsilons: [epsilon],
      });
      cells.push({ k, variant, epsilon, sigma, bounds, config });
    };
    const recordRho = perRecordRho(userRho, k);
    add('group-zcdp', zcdpToEpsilon(recordRho, scale.delta), sigmaForRho(recordRho), zcdp, null);
    const groupExactEpsilon = gaussianPlanEpsilon(k / userMu, one, scale.delta, 'exact').epsilon;
    add('group-exact', groupExactEpsilon, k / userMu, { accountant: 'exact' }, null);
    const bounds = { contributionsPerRelease: 1, releasesPerEpoch: k };
    const userParams = { privacyUnit: 'user', ...bounds };
    add(
      'bounds-zcdp',
      scale.userEpsilon,
      Math.sqrt(k) * sigmaForRho(userRho),
      { ...userParams, ...zcdp },
      bounds,
    );
    add(
      'bounds-exact',
      scale.userEpsilon,
      Math.sqrt(k) / userMu,
      { ...userParams, accountant: 'exact' },
      bounds,
    );
  }
  return { scale, references, cells, skipped, userRho, userMu };
}
