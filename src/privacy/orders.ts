/**
 * RDP order grids. The accountant evaluates the Rényi divergence at each order of a grid and
 * converts the best one to (epsilon, delta); a finer and longer grid never gives a worse epsilon.
 */

/** The paper's grid {2,3,4,5,6,8,16,32,64} (AdaPrivate-TS, as used for its reported results). */
export const PAPER_ORDERS: readonly number[] = Object.freeze([2, 3, 4, 5, 6, 8, 16, 32, 64]);

function buildExtended(): readonly number[] {
  const out: number[] = [1.05, 1.1, 1.15, 1.2, 1.25, 1.3, 1.4, 1.5, 1.6, 1.75, 1.9];
  for (let a = 2; a < 12; a += 0.5) out.push(a);
  for (let a = 12; a <= 64; a += 1) out.push(a);
  out.push(72, 80, 96, 112, 128, 160, 192, 256, 320, 384, 512, 640, 768, 896, 1024);
  return Object.freeze(out);
}

/**
 * The default grid outside paper reproduction: fractional orders from 1.05 to 11.5 (needed for
 * large epsilon), every integer from 12 to 64, then up to 1024 (needed for small epsilon and
 * many steps). 99 orders.
 */
export const EXTENDED_ORDERS: readonly number[] = buildExtended();

/** An order grid by name (`'paper'`, `'extended'`) or an explicit list of orders > 1. */
export type OrderSpec = 'paper' | 'extended' | readonly number[];

/**
 * Resolves and validates an order grid: the named grids, or a list of finite orders > 1 that is
 * returned sorted ascending and without duplicates.
 * @example resolveOrders('paper') // [2, 3, 4, 5, 6, 8, 16, 32, 64]
 */
export function resolveOrders(spec: OrderSpec = 'extended'): readonly number[] {
  if (spec === 'paper') return PAPER_ORDERS;
  if (spec === 'extended') return EXTENDED_ORDERS;
  if (!Array.isArray(spec) || spec.length === 0) {
    throw new RangeError(
      `orders must be 'paper', 'extended' or a non-empty list of numbers > 1. Got ${JSON.stringify(spec)}.`,
    );
  }
  for (const a of spec) {
    if (typeof a !== 'number' || !Number.isFinite(a) || a <= 1) {
      throw new RangeError(`orders: every order must be a finite number > 1. Got ${String(a)}.`);
    }
    if (a > 1e6) throw new RangeError(`orders: every order must be at most 1e6. Got ${a}.`);
  }
  const sorted = [...new Set(spec)].sort((x, y) => x - y);
  return Object.freeze(sorted);
}
