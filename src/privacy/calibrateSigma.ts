/**
 * Noise calibration for the Poisson-subsampled Gaussian (AdaPrivate-TS-Amp's sigma_amp, and any
 * batched Gaussian release with q = 1): the smallest noise multiplier sigma whose RDP guarantee
 * after `steps` releases is at most the target epsilon at delta, on the chosen order grid and
 * conversion. epsilon(sigma) is decreasing in sigma, so a bracket is found by doubling and then
 * narrowed in log sigma by the Illinois variant of regula falsi (with bisection safeguards)
 * until hi/lo - 1 <= 1e-8 (relative precision better than 1e-6). The upper
 * end is returned, so the returned sigma itself meets the target (never above it).
 * Cost: ~10-15 RDP curve evaluations (each ~2 ms on the extended grid).
 */
import type { Conversion } from './conversion.js';
import { rdpOrderToEpsilon } from './conversion.js';
import { EXTENDED_ORDERS } from './orders.js';
import {
  epsilonForSigma,
  type RdpGuarantee,
  resolveSettings,
  type SubsampledGaussianSettings,
} from './subsampledGaussianEpsilon.js';
import { UnreachablePrivacyTargetError } from './UnreachablePrivacyTargetError.js';

/** The result of a calibration. */
export interface Calibration extends RdpGuarantee {
  /** The noise multiplier (noise standard deviation for sensitivity 1). */
  readonly sigma: number;
  /** The requested epsilon (the achieved `epsilon` is <= target). */
  readonly targetEpsilon: number;
}

/** The smallest epsilon reachable on a grid as sigma grows without bound: the conversion term alone. */
export function epsilonFloor(
  orders: readonly number[],
  delta: number,
  conversion: Conversion,
): { epsilon: number; order: number } {
  let best = Number.POSITIVE_INFINITY;
  let order = orders[0]!;
  for (const a of orders) {
    const e = rdpOrderToEpsilon(0, a, delta, conversion);
    if (e < best) {
      best = e;
      order = a;
    }
  }
  return { epsilon: best, order };
}

const REL_PRECISION = 1e-8;

/**
 * @param epsilon target, > 0.
 * @param settings q in (0, 1], delta in (0, 1), steps (default 1), orders (default 'extended'), conversion (default 'classic').
 * Throws {@link UnreachablePrivacyTargetError} when no sigma meets the target on this grid, saying why and what would work.
 * @example calibrateSigma(1, { q: 0.3, delta: 1e-5, orders: 'paper' }) // { sigma: ~2.59315, order: 16, ... }
 */
export function calibrateSigma(epsilon: number, settings: SubsampledGaussianSettings): Calibration {
  if (typeof epsilon !== 'number' || !Number.isFinite(epsilon) || epsilon <= 0) {
    throw new RangeError(`calibrateSigma: epsilon must be a positive finite number. Got ${String(epsilon)}.`);
  }
  const r = resolveSettings('calibrateSigma', settings);
  const floor = epsilonFloor(r.orders, r.delta, r.conversion);
  if (!(epsilon > floor.epsilon)) {
    const ext = epsilonFloor(EXTENDED_ORDERS, r.delta, r.conversion);
    const extImproved = epsilonFloor(EXTENDED_ORDERS, r.delta, 'improved');
    const term =
      r.conversion === 'classic'
        ? 'ln(1/delta)/(alpha-1)'
        : 'ln((alpha-1)/alpha) - (ln delta + ln alpha)/(alpha-1)';
    throw new UnreachablePrivacyTargetError(
      `epsilon=${epsilon} at delta=${r.delta} is unreachable with orders up to ${r.orders.at(-1)} and the ${r.conversion} conversion: ` +
        `its conversion term ${term} alone is at least ${floor.epsilon.toPrecision(4)} (at order ${floor.order}) for any noise. ` +
        `What would work: epsilon > ${floor.epsilon.toPrecision(4)}, a larger delta, ` +
        `the extended grid up to order 1024 (floor ${ext.epsilon.toPrecision(4)}) or the improved conversion (floor ${extImproved.epsilon.toPrecision(4)} on the extended grid).`,
      floor.epsilon,
    );
  }
  const scratch = new Float64Array(r.orders.length);
  const meets = (sigma: number): RdpGuarantee | null => {
    const g = epsilonForSigma(sigma, r, scratch);
    return g.epsilon <= epsilon ? g : null;
  };
  let hi = 1;
  let best = meets(hi);
  let lo: number;
  if (best === null) {
    lo = hi;
    for (;;) {
      hi *= 2;
      if (hi > 1e12) {
        throw new UnreachablePrivacyTargetError(
          `epsilon=${epsilon} at delta=${r.delta}: no sigma up to 1e12 meets the target (q=${r.q}, steps=${r.steps}); use a larger epsilon or fewer steps.`,
          floor.epsilon,
        );
      }
      best = meets(hi);
      if (best !== null) break;
      lo = hi;
    }
  } else {
    lo = hi / 2;
    while (lo > 1e-6 && meets(lo) !== null) {
      hi = lo;
      lo /= 2;
    }
    best = meets(hi)!;
  }
  // invariant: meets(hi) holds, meets(lo) fails (or lo tiny). Illinois regula falsi on
  // y(x) = ln eps(e^x) - ln target, which is smooth and monotone between order switches; every
  // third step that does not shrink the bracket enough is replaced by a bisection step.
  const y = (g: RdpGuarantee): number => Math.log(Math.max(g.epsilon, 1e-300)) - Math.log(epsilon);
  let xLo = Math.log(lo);
  let xHi = Math.log(hi);
  let yLo = y(epsilonForSigma(lo, r, scratch));
  let yHi = y(best!);
  let side = 0;
  let stale = 0;
  for (let it = 0; it < 200 && Math.exp(xHi - xLo) - 1 > REL_PRECISION; it++) {
    const width = xHi - xLo;
    let x = yLo > yHi ? (xLo * yHi - xHi * yLo) / (yHi - yLo) : 0.5 * (xLo + xHi);
    if (!(x > xLo && x < xHi) || stale >= 2) {
      x = 0.5 * (xLo + xHi);
      stale = 0;
    }
    const g = epsilonForSigma(Math.exp(x), r, scratch);
    const yx = y(g);
    if (g.epsilon <= epsilon) {
      xHi = x;
      yHi = yx;
      best = g;
      if (side === 1) yLo /= 2; // Illinois: the other end was kept twice
      side = 1;
    } else {
      xLo = x;
      yLo = yx;
      if (side === -1) yHi /= 2;
      side = -1;
    }
    stale = xHi - xLo > 0.5 * width ? stale + 1 : 0;
  }
  hi = Math.exp(xHi);
  // exp(log(sigma)) may round: make sure the returned sigma itself meets the target
  const final = epsilonForSigma(hi, r, scratch);
  if (final.epsilon > epsilon) {
    hi *= 1 + 1e-12;
    best = epsilonForSigma(hi, r, scratch);
  } else {
    best = final;
  }
  return { ...best!, sigma: hi, targetEpsilon: epsilon };
}
