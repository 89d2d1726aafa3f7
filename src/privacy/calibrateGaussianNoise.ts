/**
 * The one calibrator (contract C1): the noise standard deviation sigma that a plan of Gaussian
 * releases needs for a target (epsilon, delta), under any accountant, and the epsilon(delta) of a
 * plan at a given sigma.
 *
 * - 'exact': Gaussian DP and the exact curve for q = 1 (Dong, Roth & Su 2019; Balle & Wang 2018); the
 *   closed-form curve of one Poisson-subsampled Gaussian; privacy loss distributions (pessimistic,
 *   FFT-composed) for several subsampled releases. Includes, by default, the proven margin of the
 *   discrete Gaussian sampler (`noise: 'discrete'`, see discreteGaussianMargin.ts).
 * - 'zcdp': the paper's calibration, rho = m Delta^2 / (2 sigma^2), (epsilon, delta) by the classic
 *   conversion (or CKS with `conversion: 'improved'`); q < 1 is refused (no zCDP bound).
 * - 'rdp': the subsampled-Gaussian RDP accountant on an order grid (calibrateSigma.ts; one subsampled
 *   release on the 'paper' or 'extended' grid: the paper's Amp routine, calibrateSubsampledSigma.ts).
 * epsilon(sigma) decreases in sigma under every accountant, so calibration bisects on log sigma; the
 * returned sigma itself meets the target (it is the upper end of the final bracket).
 * Cost: closed forms ~0.1-2 ms per calibration; PLD compositions see pld.ts.
 */
import { calibrateSigma } from './calibrateSigma.js';
import { calibrateSubsampledSigma } from './calibrateSubsampledSigma.js';
import { assertConversion, assertDelta, type Conversion } from './conversion.js';
import { discreteGaussianDeltaMargin } from './discreteGaussianMargin.js';
import { emptyExactComposition, exactEpsilon } from './exactCurve.js';
import { gaussianMuForTargetUnchecked } from './gaussianDp.js';
import { type OrderSpec, resolveOrders } from './orders.js';
import type { PldOptions } from './subsampledCompositionPld.js';
import { subsampledGaussianEpsilon } from './subsampledGaussianEpsilon.js';
import { UnreachablePrivacyTargetError } from './UnreachablePrivacyTargetError.js';
import { UnsupportedPrivacyEventError } from './UnsupportedPrivacyEventError.js';
import { epsilonToRho, zcdpToEpsilonUnchecked } from './zcdp.js';

/** The accountants behind {@link calibrateGaussianNoise} and the ledger. */
export type AccountantName = 'exact' | 'zcdp' | 'rdp';

/** Every {@link AccountantName}, in documentation order. */
export const ACCOUNTANT_NAMES: readonly AccountantName[] = Object.freeze(['exact', 'zcdp', 'rdp']);

/** Which noise the releases draw: the discrete Gaussian (the secure default) or the continuous one. */
export type NoiseDistribution = 'discrete' | 'continuous';

/**
 * `compositions` adaptive Gaussian releases on the protected unit's data, each with L2 sensitivity
 * `sensitivity` (absolute), optionally Poisson-subsampled at rate q (1 = none).
 */
export interface GaussianPlan {
  /** L2 sensitivity of each release, > 0 and finite. */
  readonly sensitivity: number;
  /** Number of releases that touch the protected unit, a positive integer. */
  readonly compositions: number;
  /** Poisson sampling rate, in (0, 1]; 1 = no subsampling. */
  readonly q: number;
}

/** Options of the calibrator. */
export interface AccountantOptions {
  /** 'rdp' only: order grid, 'extended' (default), 'paper' or a list of orders > 1. */
  readonly orders?: OrderSpec;
  /** 'zcdp' and 'rdp': (epsilon, delta) conversion, 'classic' (default, the paper's) or 'improved'. */
  readonly conversion?: Conversion;
  /**
   * 'exact' only: the noise distribution the releases draw. 'discrete' (default: the project's secure
   * sampler) adds the proven margin (1 + e^eps) mu^2 2^-43 to delta; 'continuous' is the textbook curve.
   */
  readonly noise?: NoiseDistribution;
}

/** epsilon(delta) of a plan at a given sigma. */
export interface PlanEpsilon {
  /** The guarantee (an upper bound for PLD compositions). */
  readonly epsilon: number;
  /** A value the true epsilon is at least: equal to `epsilon` for closed forms; PLD's optimistic value. */
  readonly epsilonLower: number;
  readonly delta: number;
  readonly accountant: AccountantName;
  /** The RDP order attaining epsilon ('rdp'), else null. */
  readonly order: number | null;
  /**
   * How it was computed: 'gdp' (closed form, q = 1), 'subsampled-exact' (closed form, one subsampled
   * release), 'pld' (privacy loss distributions), 'zcdp-classic' / 'zcdp-cks', 'rdp-classic' / 'rdp-improved'.
   */
  readonly method: string;
}

/** The result of {@link calibrateGaussianNoise}. */
export interface NoiseCalibration extends PlanEpsilon {
  /** The noise standard deviation (absolute: already multiplied by the sensitivity). */
  readonly sigma: number;
  /** The requested epsilon; the achieved `epsilon` is <= it. */
  readonly targetEpsilon: number;
}

interface Resolved {
  readonly sensitivity: number;
  readonly compositions: number;
  readonly q: number;
  readonly orders: OrderSpec;
  readonly conversion: Conversion;
  readonly noise: NoiseDistribution;
}

function resolve(
  where: string,
  plan: GaussianPlan,
  delta: number,
  accountant: AccountantName,
  options: AccountantOptions | undefined,
): Resolved {
  if (typeof plan !== 'object' || plan === null) {
    throw new RangeError(
      `${where}: plan must be an object { sensitivity, compositions, q }. Got ${String(plan)}.`,
    );
  }
  const { sensitivity, compositions, q } = plan;
  if (typeof sensitivity !== 'number' || !Number.isFinite(sensitivity) || !(sensitivity > 0)) {
    throw new RangeError(
      `${where}: plan.sensitivity must be a positive finite number. Got ${String(sensitivity)}.`,
    );
  }
  if (!Number.isSafeInteger(compositions) || compositions <= 0) {
    throw new RangeError(
      `${where}: plan.compositions must be a positive integer. Got ${String(compositions)}.`,
    );
  }
  if (typeof q !== 'number' || !(q > 0 && q <= 1)) {
    throw new RangeError(`${where}: plan.q must be in (0, 1]. Got ${String(q)}.`);
  }
  assertDelta(delta, `${where}: delta`);
  if (accountant !== 'exact' && accountant !== 'zcdp' && accountant !== 'rdp') {
    throw new RangeError(
      `${where}: accountant must be 'exact', 'zcdp' or 'rdp'. Got ${JSON.stringify(accountant)}.`,
    );
  }
  const o = options ?? {};
  if (typeof o !== 'object' || o === null) throw new RangeError(`${where}: options must be an object.`);
  const conversion = o.conversion ?? 'classic';
  assertConversion(conversion, `${where}: options.conversion`);
  const noise = o.noise ?? 'discrete';
  if (noise !== 'discrete' && noise !== 'continuous') {
    throw new RangeError(
      `${where}: options.noise must be 'discrete' or 'continuous'. Got ${JSON.stringify(noise)}.`,
    );
  }
  const orders = o.orders ?? 'extended';
  try {
    resolveOrders(orders);
  } catch (e) {
    throw new RangeError(`${where}: options.${(e as Error).message}`);
  }
  if (accountant === 'zcdp' && q < 1) {
    throw new UnsupportedPrivacyEventError(
      'subsampledGaussian',
      'zCDP accountant',
      `a Poisson-subsampled Gaussian with q = ${q} < 1 has no closed-form rho; use the 'exact' or 'rdp' accountant.`,
    );
  }
  return { sensitivity, compositions, q, orders, conversion, noise };
}

/** epsilon of the plan at noise std sigma (validated inputs). */
function planEpsilon(
  sigma: number,
  r: Resolved,
  delta: number,
  accountant: AccountantName,
  pldOptions?: PldOptions,
): PlanEpsilon {
  const s = sigma / r.sensitivity; // noise multiplier
  const m = r.compositions;
  if (accountant === 'zcdp') {
    const rho = (m * r.sensitivity * r.sensitivity) / (2 * sigma * sigma);
    const epsilon = zcdpToEpsilonUnchecked(rho, delta, r.conversion);
    const method = r.conversion === 'classic' ? 'zcdp-classic' : 'zcdp-cks';
    return { epsilon, epsilonLower: epsilon, delta, accountant, order: null, method };
  }
  if (accountant === 'rdp') {
    const g = subsampledGaussianEpsilon(s, {
      q: r.q,
      delta,
      steps: m,
      orders: r.orders,
      conversion: r.conversion,
    });
    const method = r.conversion === 'classic' ? 'rdp-classic' : 'rdp-improved';
    return { epsilon: g.epsilon, epsilonLower: g.epsilon, delta, accountant, order: g.order, method };
  }
  const c = emptyExactComposition();
  if (r.q >= 1) c.mu2 = m / (s * s);
  else c.parts.set(`${r.q}|${s}`, { q: r.q, s, count: m });
  const e = exactEpsilon(c, delta, r.noise === 'discrete', pldOptions);
  return {
    epsilon: e.epsilon,
    epsilonLower: e.epsilonLower,
    delta,
    accountant,
    order: null,
    method: e.method,
  };
}

/**
 * epsilon(delta) of the plan at noise standard deviation `sigma` (the upper bound for PLD; its
 * optimistic value is `epsilonLower`).
 * @param sigma absolute noise std, > 0. @param delta in (0, 1).
 * @example gaussianPlanEpsilon(3.7307, { sensitivity: 1, compositions: 1, q: 1 }, 1e-5, 'exact').epsilon // ~1.0
 */
export function gaussianPlanEpsilon(
  sigma: number,
  plan: GaussianPlan,
  delta: number,
  accountant: AccountantName,
  options?: AccountantOptions,
): PlanEpsilon {
  const r = resolve('gaussianPlanEpsilon', plan, delta, accountant, options);
  if (typeof sigma !== 'number' || !Number.isFinite(sigma) || !(sigma > 0)) {
    throw new RangeError(
      `gaussianPlanEpsilon: sigma must be a positive finite number. Got ${String(sigma)}.`,
    );
  }
  return planEpsilon(sigma, r, delta, accountant);
}

/**
 * The smallest noise standard deviation sigma (absolute, not a multiplier) meeting (epsilon, delta)
 * for the plan under the accountant. The returned sigma meets the target itself: `epsilon` (its
 * guarantee, recomputed) is <= target.epsilon.
 * - 'zcdp' is exactly the paper's calibration: sigma = Delta sqrt(m) / sqrt(2 rho), rho = epsilonToRho(epsilon, delta).
 * - 'rdp' is calibrateSigma (subsampled RDP) times the sensitivity; one subsampled release (q < 1,
 *   m = 1) on a named grid uses the paper's Amp routine calibrateSubsampledSigma (the one calibrator).
 * - 'exact': GDP (q = 1), the subsampled closed form (q < 1, m = 1) or PLD (q < 1, m > 1), by bisection.
 * Throws RangeError on bad input, UnsupportedPrivacyEventError for 'zcdp' with q < 1, and
 * UnreachablePrivacyTargetError when no sigma meets the target.
 * @example calibrateGaussianNoise({ epsilon: 1, delta: 1e-5 }, { sensitivity: 1, compositions: 1, q: 1 }, 'exact').sigma // ~3.7306
 */
export function calibrateGaussianNoise(
  target: { readonly epsilon: number; readonly delta: number },
  plan: GaussianPlan,
  accountant: AccountantName,
  options?: AccountantOptions,
): NoiseCalibration {
  if (typeof target !== 'object' || target === null) {
    throw new RangeError('calibrateGaussianNoise: target must be an object { epsilon, delta }.');
  }
  const { epsilon, delta } = target;
  if (typeof epsilon !== 'number' || !Number.isFinite(epsilon) || !(epsilon > 0)) {
    throw new RangeError(
      `calibrateGaussianNoise: target.epsilon must be a positive finite number. Got ${String(epsilon)}.`,
    );
  }
  const r = resolve('calibrateGaussianNoise', plan, delta, accountant, options);
  const key = JSON.stringify([
    epsilon,
    delta,
    accountant,
    r.sensitivity,
    r.compositions,
    r.q,
    r.orders,
    r.conversion,
    r.noise,
  ]);
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const result = Object.freeze(calibrateResolved(epsilon, delta, r, accountant));
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(key, result);
  return result;
}

/**
 * Calibrations already computed (a pure function of its validated arguments; JSON keys are exact for
 * doubles): a service or an audit builds many policies with the same budget. At most MEMO_SIZE
 * entries, the oldest dropped first.
 */
const MEMO_SIZE = 256;
const memo = new Map<string, NoiseCalibration>();

function calibrateResolved(
  epsilon: number,
  delta: number,
  r: Resolved,
  accountant: AccountantName,
): NoiseCalibration {
  const done = (sigma: number): NoiseCalibration => {
    if (!(sigma > 0 && sigma < Number.POSITIVE_INFINITY)) {
      throw new UnreachablePrivacyTargetError(
        `calibrateGaussianNoise: no finite sigma meets epsilon=${epsilon} at delta=${delta} (${accountant}).`,
        epsilon,
      );
    }
    let s = sigma;
    let g = planEpsilon(s, r, delta, accountant);
    for (let i = 0; i < 60 && g.epsilon > epsilon; i++) {
      s *= 1 + 1e-12 * 2 ** i; // rounding of sigma: step up until the guarantee holds
      g = planEpsilon(s, r, delta, accountant);
    }
    if (g.epsilon > epsilon) {
      throw new UnreachablePrivacyTargetError(
        `calibrateGaussianNoise: no sigma found meeting epsilon=${epsilon} at delta=${delta} (${accountant}).`,
        epsilon,
      );
    }
    return { ...g, sigma: s, targetEpsilon: epsilon };
  };
  if (accountant === 'zcdp') {
    const rho = epsilonToRho(epsilon, delta, r.conversion);
    return done((r.sensitivity * Math.sqrt(r.compositions)) / Math.sqrt(2 * rho));
  }
  if (accountant === 'rdp') {
    // one subsampled release on a named grid: the paper's Amp calibration (calibrateSubsampledSigma,
    // bit for bit what the reproduction uses); otherwise the order-grid bisection of calibrateSigma
    const c =
      r.q < 1 && r.compositions === 1 && (r.orders === 'paper' || r.orders === 'extended')
        ? calibrateSubsampledSigma(epsilon, delta, r.q, r.orders, r.conversion)
        : calibrateSigma(epsilon, {
            q: r.q,
            delta,
            steps: r.compositions,
            orders: r.orders,
            conversion: r.conversion,
          });
    return { ...done(c.sigma * r.sensitivity), order: c.order };
  }
  if (r.q >= 1) {
    // closed form: the largest total mu meeting the target, with the discrete margin taken out of delta
    let mu = gaussianMuForTargetUnchecked(epsilon, delta);
    if (r.noise === 'discrete') {
      // two valid routes, as in exactEpsilon: the continuous curve with the margin taken out of delta
      // (none once the margin's e^eps factor exceeds delta, from eps ~ 17), and the discrete
      // Gaussian's own zCDP bound (CKS 2020) with the CKS conversion; the larger mu meets the target
      const d = delta - discreteGaussianDeltaMargin(epsilon, mu * mu);
      const viaMargin = d > 0 ? gaussianMuForTargetUnchecked(epsilon, d) : 0;
      const viaZcdp = Math.sqrt(2 * epsilonToRho(epsilon, delta, 'improved'));
      mu = Math.max(viaMargin, viaZcdp);
    }
    return done((r.sensitivity * Math.sqrt(r.compositions)) / mu);
  }
  return done(bisectSigma(epsilon, r, delta));
}

/** A coarse PLD for the first stage of a PLD calibration (fast; its sigma is refined at full resolution). */
const COARSE_PLD: PldOptions = { targetGap: 1e-2, maxPoints: 2 ** 13 };

/** Smallest sigma with planEpsilon <= target, by bracketing and bisection in log sigma. */
function bisectSigma(target: number, r: Resolved, delta: number): number {
  const pld = r.compositions > 1;
  const coarse = (sigma: number): boolean =>
    planEpsilon(sigma, r, delta, 'exact', pld ? COARSE_PLD : undefined).epsilon <= target;
  // subsampling only helps: the q = 1 sigma (closed form) is an upper bracket up to rounding
  let hi = (r.sensitivity * Math.sqrt(r.compositions)) / gaussianMuForTargetUnchecked(target, delta / 2);
  while (!coarse(hi)) {
    hi *= 2;
    if (hi > 1e12 * r.sensitivity) {
      throw new UnreachablePrivacyTargetError(
        `calibrateGaussianNoise: no sigma up to 1e12 x sensitivity meets epsilon=${target} at delta=${delta}.`,
        target,
      );
    }
  }
  let lo = hi / 2;
  while (coarse(lo)) {
    hi = lo;
    lo /= 2;
    if (lo < 1e-9 * r.sensitivity) return hi;
  }
  for (let i = 0; i < 200 && hi / lo - 1 > (pld ? 1e-3 : 1e-11); i++) {
    const mid = Math.sqrt(lo * hi);
    if (coarse(mid)) hi = mid;
    else lo = mid;
  }
  if (!pld) return hi;
  // second stage at full resolution: Illinois regula falsi on ln eps(e^x) - ln target in a bracket
  // around the coarse answer (widened until it brackets), stopped at relative width 1e-5
  const y = (sigma: number): number => Math.log(planEpsilon(sigma, r, delta, 'exact').epsilon / target);
  let xLo = Math.log(lo * 0.97);
  let xHi = Math.log(hi * 1.005);
  let yLo = y(Math.exp(xLo));
  let yHi = y(Math.exp(xHi));
  while (yHi > 0) {
    xLo = xHi;
    yLo = yHi;
    xHi += 0.05;
    yHi = y(Math.exp(xHi));
  }
  while (yLo <= 0) {
    xHi = xLo;
    yHi = yLo;
    xLo -= 0.05;
    yLo = y(Math.exp(xLo));
  }
  let side = 0;
  for (let i = 0; i < 60 && Math.exp(xHi - xLo) - 1 > 1e-5; i++) {
    let x = (xLo * yHi - xHi * yLo) / (yHi - yLo);
    if (!(x > xLo && x < xHi)) x = 0.5 * (xLo + xHi);
    const yx = y(Math.exp(x));
    if (yx <= 0) {
      xHi = x;
      yHi = yx;
      if (side === 1) yLo /= 2;
      side = 1;
    } else {
      xLo = x;
      yLo = yx;
      if (side === -1) yHi /= 2;
      side = -1;
    }
  }
  return Math.exp(xHi);
}
