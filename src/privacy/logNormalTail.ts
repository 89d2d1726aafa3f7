/**
 * ln(erfc(x) / 2) = ln P(N(0, 1/2) > x), accurate in relative terms over the whole real line: no
 * underflow for large x (it works with the scaled erfcx(x) = e^{x^2} erfc(x)) and no loss of
 * precision when erfc(x)/2 is close to 1. Kernel: never throws, no allocation.
 *
 * - |x| < 1.5: erf(x) = (2/sqrt(pi)) e^{-x^2} sum_{n>=0} 2^n x^{2n+1} / (1 3 5 ... (2n+1))
 *   (Abramowitz & Stegun 7.1.6; positive terms, so no cancellation), erfc = 1 - erf.
 * - x >= 1.5: the continued fraction erfcx(x) = (1/sqrt(pi)) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
 *   (A&S 7.1.14), evaluated with the modified Lentz algorithm (<= 91 steps at x = 1.5, fewer above).
 * - x <= -1.5: erfc(x) = 2 - erfc(-x), so ln(erfc(x)/2) = log1p(-erfc(-x)/2).
 * Relative accuracy about 2e-15 (checked against mpmath in the tests).
 * @example logHalfErfc(0) // ln(0.5) = -0.6931...
 */
const INV_SQRT_PI = 1 / Math.sqrt(Math.PI);

/** sum_{n>=0} 2^n x^{2n+1} / (2n+1)!!, so that erf(x) = 2/sqrt(pi) e^{-x^2} times it. */
function erfScaledSeries(x: number): number {
  let term = x;
  let sum = x;
  const x2 = 2 * x * x;
  for (let n = 0; n < 200; n++) {
    term *= x2 / (2 * n + 3);
    sum += term;
    if (Math.abs(term) < 1e-17 * Math.abs(sum)) break;
  }
  return sum;
}

/** erfcx(x) = e^{x^2} erfc(x) for x >= 1.5 (continued fraction, modified Lentz). */
function erfcxLarge(x: number): number {
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 500; k++) {
    const a = k / 2;
    d = 1 / (x + a * d);
    c = x + a / c;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return INV_SQRT_PI / f;
}

/** erfc(x) for |x| < 1.5. */
function erfcSmall(x: number): number {
  return 1 - 2 * INV_SQRT_PI * Math.exp(-x * x) * erfScaledSeries(x);
}

export function logHalfErfc(x: number): number {
  if (x >= 1.5) return Math.log(0.5 * erfcxLarge(x)) - x * x;
  if (x > -1.5) return Math.log(0.5 * erfcSmall(x));
  if (x === Number.NEGATIVE_INFINITY) return 0;
  // erfc(-x) = erfcx(-x) e^{-x^2} (underflows to 0 harmlessly for very negative x)
  return Math.log1p(-0.5 * erfcxLarge(-x) * Math.exp(-x * x));
}
