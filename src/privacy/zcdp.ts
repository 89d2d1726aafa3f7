/**
 * zCDP accounting (Bun & Steinke 2016): the Gaussian mechanism's rho, conversions between rho
 * and (epsilon, delta) in both directions, and group privacy. Pure functions, O(1) or a short
 * root search (< 200 iterations) each.
 */
import { assertConversion, assertDelta, type Conversion } from './conversion.js';

function checkPositive(where: string, name: string, v: number): void {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    throw new RangeError(`${where}: ${name} must be a positive finite number. Got ${String(v)}.`);
  }
}

/**
 * rho of the Gaussian mechanism with L2 sensitivity `sensitivity` and noise N(0, sigma^2 I):
 * rho = sensitivity^2 / (2 sigma^2) (Bun & Steinke 2016, Prop. 1.6).
 * @example gaussianRho(1, 1) // 0.5
 */
export function gaussianRho(sensitivity: number, sigma: number): number {
  checkPositive('gaussianRho', 'sensitivity', sensitivity);
  checkPositive('gaussianRho', 'sigma', sigma);
  return (sensitivity * sensitivity) / (2 * sigma * sigma);
}

/**
 * The noise standard deviation that makes a sensitivity-`sensitivity` Gaussian release rho-zCDP:
 * sigma = sensitivity / sqrt(2 rho). With sensitivity 1 this is the noise multiplier.
 * @example sigmaForRho(0.5) // 1
 */
export function sigmaForRho(rho: number, sensitivity = 1): number {
  checkPositive('sigmaForRho', 'rho', rho);
  checkPositive('sigmaForRho', 'sensitivity', sensitivity);
  return sensitivity / Math.sqrt(2 * rho);
}

/**
 * The CKS objective at order alpha for rho-zCDP: alpha rho + ln(1 - 1/alpha) + (L - ln alpha)/(alpha - 1),
 * L = ln(1/delta) (Canonne, Kamath & Steinke 2020, Prop. 12 with eps_rdp(alpha) = alpha rho).
 */
function cksObjective(alpha: number, rho: number, logInvDelta: number): number {
  return alpha * rho + Math.log1p(-1 / alpha) + (logInvDelta - Math.log(alpha)) / (alpha - 1);
}

/**
 * The order minimising the CKS objective: its derivative is rho - (L - ln alpha)/(alpha - 1)^2, so
 * the minimiser solves rho (alpha - 1)^2 + ln alpha = L, increasing in alpha (bisection).
 */
function cksOptimalOrder(rho: number, logInvDelta: number): number {
  let lo = 1;
  let hi = 1 + Math.sqrt(logInvDelta / rho);
  for (let i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (rho * (mid - 1) * (mid - 1) + Math.log(mid) < logInvDelta) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The epsilon of a rho-zCDP mechanism at `delta`.
 * - `classic` (the paper's, Bun & Steinke 2016 Prop. 1.3): eps = rho + 2 sqrt(rho ln(1/delta)).
 * - `improved` (Canonne, Kamath & Steinke 2020, Prop. 12 / Cor. 13):
 *   eps = inf_{alpha > 1} alpha rho + ln(1 - 1/alpha) + (ln(1/delta) - ln alpha)/(alpha - 1).
 * @param rho >= 0. @param delta in (0, 1). @param conversion default 'classic'.
 * @example zcdpToEpsilon(0.4496, 1e-5) // ~5.0
 */
export function zcdpToEpsilon(rho: number, delta: number, conversion: Conversion = 'classic'): number {
  if (typeof rho !== 'number' || !Number.isFinite(rho) || rho < 0) {
    throw new RangeError(`zcdpToEpsilon: rho must be a finite number >= 0. Got ${String(rho)}.`);
  }
  assertDelta(delta, 'zcdpToEpsilon: delta');
  assertConversion(conversion, 'zcdpToEpsilon: conversion');
  return zcdpToEpsilonUnchecked(rho, delta, conversion);
}

/** {@link zcdpToEpsilon} without validation (kernel). */
export function zcdpToEpsilonUnchecked(rho: number, delta: number, conversion: Conversion): number {
  if (rho === 0) return 0;
  const L = -Math.log(delta);
  if (conversion === 'classic') return rho + 2 * Math.sqrt(rho * L);
  const alpha = cksOptimalOrder(rho, L);
  return Math.max(0, cksObjective(alpha, rho, L));
}

/**
 * The largest rho whose (epsilon, delta) conversion is at most `epsilon`.
 * - `classic`: rho = (sqrt(eps + ln(1/delta)) - sqrt(ln(1/delta)))^2 (SPEC section 2; eps=5, delta=1e-5 -> 0.4496),
 *   computed in a cancellation-free form.
 * - `improved` (CKS 2020): root of zcdpToEpsilon(rho, delta, 'improved') = epsilon by bisection in
 *   log rho to relative precision 1e-12, returning the lower end so the result never exceeds epsilon.
 * @example epsilonToRho(5, 1e-5) // 0.44964...
 */
export function epsilonToRho(epsilon: number, delta: number, conversion: Conversion = 'classic'): number {
  checkPositive('epsilonToRho', 'epsilon', epsilon);
  assertDelta(delta, 'epsilonToRho: delta');
  assertConversion(conversion, 'epsilonToRho: conversion');
  const L = -Math.log(delta);
  // (sqrt(e + L) - sqrt(L))^2 = e^2 / (sqrt(e + L) + sqrt(L))^2, no cancellation
  const s = Math.sqrt(epsilon + L) + Math.sqrt(L);
  const classic = (epsilon * epsilon) / (s * s);
  if (conversion === 'classic') return classic;
  let lo = classic; // the improved conversion is never worse, so lo meets the target
  let hi = classic * 2;
  while (zcdpToEpsilonUnchecked(hi, delta, 'improved') <= epsilon) {
    lo = hi;
    hi *= 2;
  }
  for (let i = 0; i < 200 && hi - lo > 1e-13 * lo; i++) {
    const mid = Math.sqrt(lo * hi);
    if (zcdpToEpsilonUnchecked(mid, delta, 'improved') <= epsilon) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Group privacy for zCDP (Bun & Steinke 2016, Prop. 1.9): a rho-zCDP mechanism is (k^2 rho)-zCDP
 * for groups of k records. Returns k^2 rho.
 * @example groupRho(0.018, 5) // 0.45
 */
export function groupRho(rho: number, k: number): number {
  if (typeof rho !== 'number' || !Number.isFinite(rho) || rho < 0) {
    throw new RangeError(`groupRho: rho must be a finite number >= 0. Got ${String(rho)}.`);
  }
  if (!Number.isSafeInteger(k) || k <= 0)
    throw new RangeError(`groupRho: k must be a positive integer. Got ${String(k)}.`);
  return k * k * rho;
}

/**
 * The per-record rho that protects groups of k records at user-level rho: rho / k^2.
 * @example perRecordRho(0.4496, 10) // 0.004496
 */
export function perRecordRho(userRho: number, k: number): number {
  checkPositive('perRecordRho', 'userRho', userRho);
  if (!Number.isSafeInteger(k) || k <= 0)
    throw new RangeError(`perRecordRho: k must be a positive integer. Got ${String(k)}.`);
  return userRho / (k * k);
}
