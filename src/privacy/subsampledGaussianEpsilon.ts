/**
 * (epsilon, delta) of `steps` Poisson-subsampled Gaussian releases on the same data, by the RDP
 * accountant: eps_rdp(alpha) = steps x RDP(q, sigma, alpha) (Mironov, Talwar & Zhang 2019), converted
 * at every order of the grid and minimised (Mironov 2017 classic, or Balle et al. 2020 improved).
 * Cost: one RDP curve, O(sum of integer orders + ~100 terms per fractional order), ~0.5 ms on the extended grid.
 */
import { assertConversion, assertDelta, type Conversion, rdpToEpsilon } from './conversion.js';
import { type OrderSpec, resolveOrders } from './orders.js';
import { subsampledGaussianRdpCurve } from './subsampledGaussianRdp.js';

/** Inputs of {@link subsampledGaussianEpsilon} and the calibration. */
export interface SubsampledGaussianSettings {
  /** Sampling rate, in (0, 1]; 1 means no subsampling. */
  readonly q: number;
  /** delta of the guarantee, in (0, 1). */
  readonly delta: number;
  /** Number of releases composed sequentially on the same data; positive integer, default 1. */
  readonly steps?: number;
  /** Order grid: 'extended' (default), 'paper' or a list of orders > 1. */
  readonly orders?: OrderSpec;
  /** (epsilon, delta) conversion: 'classic' (default, the paper's) or 'improved'. */
  readonly conversion?: Conversion;
}

/** The result of the RDP accountant. */
export interface RdpGuarantee {
  readonly epsilon: number;
  readonly delta: number;
  /** The order of the grid that attains epsilon. */
  readonly order: number;
  /** True when `order` is the first or last order of the grid. */
  readonly orderAtEdge: boolean;
  readonly conversion: Conversion;
}

/** Validated, resolved settings (entry points share this). */
export interface ResolvedSettings {
  readonly q: number;
  readonly delta: number;
  readonly steps: number;
  readonly orders: readonly number[];
  readonly conversion: Conversion;
}

/** Validates and resolves settings; throws RangeError naming the option, the value and the rule. */
export function resolveSettings(where: string, s: SubsampledGaussianSettings): ResolvedSettings {
  if (typeof s !== 'object' || s === null) throw new RangeError(`${where}: settings must be an object.`);
  if (typeof s.q !== 'number' || !(s.q > 0 && s.q <= 1)) {
    throw new RangeError(`${where}: q must be in (0, 1]. Got ${String(s.q)}.`);
  }
  assertDelta(s.delta, `${where}: delta`);
  const steps = s.steps ?? 1;
  if (!Number.isSafeInteger(steps) || steps <= 0) {
    throw new RangeError(`${where}: steps must be a positive integer. Got ${String(steps)}.`);
  }
  const conversion = s.conversion ?? 'classic';
  assertConversion(conversion, `${where}: conversion`);
  let orders: readonly number[];
  try {
    orders = resolveOrders(s.orders ?? 'extended');
  } catch (e) {
    throw new RangeError(`${where}: ${(e as Error).message}`);
  }
  return { q: s.q, delta: s.delta, steps, orders, conversion };
}

/** Kernel form: epsilon for resolved settings, writing the curve into `scratch` (length = orders). */
export function epsilonForSigma(sigma: number, r: ResolvedSettings, scratch: Float64Array): RdpGuarantee {
  subsampledGaussianRdpCurve(r.q, sigma, r.orders, r.steps, scratch);
  const e = rdpToEpsilon(r.orders, scratch, r.delta, r.conversion);
  return {
    epsilon: e.epsilon,
    delta: r.delta,
    order: e.order,
    orderAtEdge: e.edge,
    conversion: r.conversion,
  };
}

/**
 * epsilon of `steps` subsampled Gaussian releases with noise multiplier `sigma`.
 * @example subsampledGaussianEpsilon(2.5, { q: 0.3, delta: 1e-5, orders: 'paper' }) // { epsilon: ~1.0404, order: 16, ... }
 */
export function subsampledGaussianEpsilon(sigma: number, settings: SubsampledGaussianSettings): RdpGuarantee {
  if (typeof sigma !== 'number' || !Number.isFinite(sigma) || sigma <= 0) {
    throw new RangeError(
      `subsampledGaussianEpsilon: sigma must be a positive finite number. Got ${String(sigma)}.`,
    );
  }
  const r = resolveSettings('subsampledGaussianEpsilon', settings);
  return epsilonForSigma(sigma, r, new Float64Array(r.orders.length));
}
