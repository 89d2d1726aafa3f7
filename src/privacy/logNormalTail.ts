/**
 * ln(erfc(x) / 2), accurate in relative terms over the whole real line (no underflow for large x,
 * no loss of precision when erfc(x)/2 is close to 1). Kernel: never throws.
 * Uses stdlib's erfc and the scaled erfcx (erfc(x) = erfcx(x) e^{-x^2}).
 * @example logHalfErfc(0) // ln(0.5) = -0.6931...
 */
import erfc from '@stdlib/math-base-special-erfc';
import erfcx from '@stdlib/math-base-special-erfcx';

export function logHalfErfc(x: number): number {
  if (x < 0) return Math.log1p(-0.5 * erfc(-x));
  if (x < 0.5) return Math.log(0.5 * erfc(x));
  return Math.log(0.5 * erfcx(x)) - x * x;
}
