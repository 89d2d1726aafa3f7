/**
 * RDP (and zCDP) to (epsilon, delta) conversions.
 *
 * - `classic` (Mironov 2017, Prop. 3): eps = eps_rdp(alpha) + ln(1/delta) / (alpha - 1).
 *   Applied to rho-zCDP (eps_rdp(alpha) = alpha rho) and minimised over all alpha > 1 it gives the
 *   paper's formula eps = rho + 2 sqrt(rho ln(1/delta)) (Bun & Steinke 2016, Prop. 1.3).
 * - `improved` (Balle et al. 2020, Thm. 21; Canonne, Kamath & Steinke 2020, Prop. 12):
 *   eps = eps_rdp(alpha) + ln((alpha - 1) / alpha) - (ln delta + ln alpha) / (alpha - 1).
 *   Always at most the classic value for the same alpha. For zCDP this is the "CKS" conversion.
 */
export type Conversion = 'classic' | 'improved';

/** Checks a conversion name (entry points only). */
export function assertConversion(value: unknown, where = 'conversion'): asserts value is Conversion {
  if (value !== 'classic' && value !== 'improved') {
    throw new RangeError(`${where} must be 'classic' or 'improved'. Got ${JSON.stringify(value)}.`);
  }
}

/** Checks delta in (0, 1) (entry points only). */
export function assertDelta(delta: unknown, where = 'delta'): asserts delta is number {
  if (typeof delta !== 'number' || !(delta > 0 && delta < 1)) {
    throw new RangeError(`${where} must be in (0, 1). Got ${String(delta)}.`);
  }
}

/**
 * epsilon at one order: eps_rdp(alpha) plus the conversion term. Kernel: no validation, no throw.
 * @example rdpOrderToEpsilon(1, 2, 1e-5, 'classic') // 1 + ln(1e5) = 12.5129...
 */
export function rdpOrderToEpsilon(rdp: number, alpha: number, delta: number, conversion: Conversion): number {
  if (conversion === 'classic') return rdp - Math.log(delta) / (alpha - 1);
  return rdp + Math.log1p(-1 / alpha) - (Math.log(delta) + Math.log(alpha)) / (alpha - 1);
}

/** The result of converting an RDP curve to (epsilon, delta). */
export interface RdpEpsilon {
  /** The smallest epsilon over the grid (>= 0). */
  readonly epsilon: number;
  /** The order attaining it. */
  readonly order: number;
  /** True when that order is the first or last of the grid (a longer grid might do better). */
  readonly edge: boolean;
}

/**
 * Converts an RDP curve (eps_rdp at each order of `orders`) to the best (epsilon, delta) on the
 * grid, naming the order. Kernel: `orders` must be ascending, > 1, and as long as `rdp`.
 * @example rdpToEpsilon([2, 3], [0.5, 0.75], 1e-5, 'classic') // { epsilon: 6.506..., order: 3, edge: true }
 */
export function rdpToEpsilon(
  orders: ArrayLike<number>,
  rdp: ArrayLike<number>,
  delta: number,
  conversion: Conversion,
): RdpEpsilon {
  let best = Number.POSITIVE_INFINITY;
  let bestIndex = 0;
  for (let i = 0; i < orders.length; i++) {
    const e = rdpOrderToEpsilon(rdp[i]!, orders[i]!, delta, conversion);
    if (e < best) {
      best = e;
      bestIndex = i;
    }
  }
  return {
    epsilon: Math.max(0, best),
    order: orders[bestIndex]!,
    edge: orders.length > 1 && (bestIndex === 0 || bestIndex === orders.length - 1),
  };
}
