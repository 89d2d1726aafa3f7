/**
 * What an event-level guarantee promises a person who gave k rewards: group privacy. A rho-zCDP
 * mechanism is (k^2 rho)-zCDP for groups of k records (Bun & Steinke 2016, Prop. 1.9); a mu-GDP
 * mechanism is (k mu)-GDP for them (Dong, Roth & Su 2022, group privacy of GDP). For Gaussian
 * releases with sensitivity 1 per record and noise sigma, k records of one person change the
 * released statistics by at most k in total (in one release or spread over several, the squared
 * sensitivities add to at most k^2), so mu = k / sigma: the exact curve gives the same person a
 * smaller epsilon than the zCDP conversion.
 *
 * Cost: O(1) (zCDP) or a bisection on the GDP curve (exact).
 */
import { gaussianPlanEpsilon, groupRho, zcdpToEpsilon } from '../../../privacy/index.js';

/** The user-level guarantee of an event-level mechanism for a person with `k` records. */
export interface GroupGuarantee {
  readonly k: number;
  /** (k^2 rho)-zCDP converted to epsilon at `delta` (classic conversion), or null without a zCDP rho. */
  readonly zcdpEpsilon: number | null;
  /** epsilon at `delta` of (k mu)-GDP, mu = sqrt(2 rho) for Gaussian releases, or null when not Gaussian. */
  readonly exactEpsilon: number | null;
  readonly rho: number | null;
}

/**
 * Group privacy of an event-level mechanism with total zCDP `rho` per record, for a person with
 * `k` records, at `delta`. `gaussian`: every release of the mechanism is a continuous Gaussian (then
 * it is sqrt(2 rho)-GDP and the exact epsilon is given, from the exact accountant's Gaussian curve
 * `gaussianPlanEpsilon(..., 'exact')` for the continuous Gaussian); otherwise only the zCDP figure.
 *
 * @example
 * groupGuarantee(0.04501, 5, 1e-5, true).zcdpEpsilon; // returns ~10.9 (eps 1 per record, 5 records)
 * groupGuarantee(0.04501, 5, 1e-5, true).exactEpsilon; // returns ~6.5
 */
export function groupGuarantee(
  rho: number | null,
  k: number,
  delta: number,
  gaussian: boolean,
): GroupGuarantee {
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new RangeError(`groupGuarantee: k must be a positive integer. Got ${k}.`);
  }
  if (rho === null) return { k, rho: null, zcdpEpsilon: null, exactEpsilon: null };
  if (!(rho >= 0) || !Number.isFinite(rho)) {
    throw new RangeError(`groupGuarantee: rho must be a finite number >= 0. Got ${rho}.`);
  }
  const zcdpEpsilon = zcdpToEpsilon(groupRho(rho, k), delta);
  // k records of sensitivity 1 each against noise sigma = 1 / sqrt(2 rho): mu = k / sigma (C1's exact curve)
  const exactEpsilon =
    gaussian && rho > 0
      ? gaussianPlanEpsilon(
          1 / Math.sqrt(2 * rho),
          { sensitivity: k, compositions: 1, q: 1 },
          delta,
          'exact',
          {
            noise: 'continuous',
          },
        ).epsilon
      : gaussian
        ? 0
        : null;
  return { k, rho, zcdpEpsilon, exactEpsilon };
}
