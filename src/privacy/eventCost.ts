/**
 * The accountant proper: what a {@link PrivacyEvent} costs. Every event is reduced to
 * rho-zCDP plus, when it contains a subsampled Gaussian with q < 1, an RDP curve on an order
 * grid: eps_rdp(alpha_i) = alpha_i * rho + rdp[i]. zCDP-expressible events (Gaussian, zcdp,
 * subsampled Gaussian with q = 1, and compositions of those) keep `rdp = null`, so they can be
 * converted with the exact zCDP formulas (no grid). Unknown kinds throw
 * {@link UnsupportedPrivacyEventError}.
 */
import type { PrivacyEvent } from './events.js';
import { subsampledGaussianRdpCurve } from './subsampledGaussianRdp.js';
import { UnsupportedPrivacyEventError } from './UnsupportedPrivacyEventError.js';

/** The cost of an event: rho-zCDP plus an optional extra RDP curve on the order grid. */
export interface EventCost {
  /** The zCDP part (contributes alpha * rho at order alpha). */
  readonly rho: number;
  /** Extra RDP at each order of the grid, or null when the event is pure zCDP. */
  readonly rdp: Float64Array | null;
}

/**
 * rho of a zCDP-expressible event (Gaussian: sensitivity^2/(2 sigma^2); zcdp: rho; subsampled Gaussian
 * only when q = 1; sequential composition adds, parallel takes the max, self-composition multiplies).
 * Throws {@link UnsupportedPrivacyEventError} for a subsampled Gaussian with q < 1 (no closed-form
 * zCDP bound; use the RDP accountant) and for unknown kinds.
 * @example eventRho({ kind: 'gaussian', sensitivity: 1, sigma: 1 }) // 0.5
 */
export function eventRho(event: PrivacyEvent): number {
  switch (event.kind) {
    case 'gaussian':
      return (event.sensitivity * event.sensitivity) / (2 * event.sigma * event.sigma);
    case 'zcdp':
      return event.rho;
    case 'subsampledGaussian':
      if (event.q >= 1) return 1 / (2 * event.sigma * event.sigma);
      throw new UnsupportedPrivacyEventError(
        event.kind,
        'zCDP accountant',
        `a Poisson-subsampled Gaussian with q = ${event.q} < 1 has no closed-form rho; use the RDP accountant.`,
      );
    case 'selfComposed':
      return event.count * eventRho(event.event);
    case 'composed': {
      let s = 0;
      for (const e of event.events) s += eventRho(e);
      return s;
    }
    case 'parallel': {
      let m = 0;
      for (const e of event.events) m = Math.max(m, eventRho(e));
      return m;
    }
    default:
      return refuse(event, 'zCDP accountant');
  }
}

function refuse(event: unknown, accountant: string): never {
  const kind =
    typeof event === 'object' && event !== null ? String((event as { kind?: unknown }).kind) : String(event);
  throw new UnsupportedPrivacyEventError(kind, accountant, 'unknown event kind (never counted as free).');
}

/** True when the event contains a subsampled Gaussian with q < 1 (needs the RDP accountant). */
export function needsRdp(event: PrivacyEvent): boolean {
  switch (event.kind) {
    case 'gaussian':
    case 'zcdp':
      return false;
    case 'subsampledGaussian':
      return event.q < 1;
    case 'selfComposed':
      return needsRdp(event.event);
    case 'composed':
    case 'parallel':
      return event.events.some(needsRdp);
    default:
      return refuse(event, 'RDP accountant');
  }
}

/**
 * The cost of `event` on the order grid `orders` (ascending, > 1). Pure zCDP events cost no grid
 * evaluation. Cost: O(|orders| x alpha) per subsampled Gaussian inside the event.
 * @example eventCost({ kind: 'zcdp', rho: 0.1 }, [2, 3]) // { rho: 0.1, rdp: null }
 */
export function eventCost(event: PrivacyEvent, orders: readonly number[]): EventCost {
  if (!needsRdp(event)) return { rho: eventRho(event), rdp: null };
  switch (event.kind) {
    case 'subsampledGaussian':
      return {
        rho: 0,
        rdp: subsampledGaussianRdpCurve(event.q, event.sigma, orders, 1, new Float64Array(orders.length)),
      };
    case 'selfComposed': {
      const c = eventCost(event.event, orders);
      const rdp = c.rdp === null ? null : c.rdp.map((v) => v * event.count);
      return { rho: c.rho * event.count, rdp };
    }
    case 'composed': {
      let rho = 0;
      const rdp = new Float64Array(orders.length);
      for (const e of event.events) {
        const c = eventCost(e, orders);
        rho += c.rho;
        if (c.rdp !== null) for (let i = 0; i < rdp.length; i++) rdp[i]! += c.rdp[i]!;
      }
      return { rho, rdp };
    }
    case 'parallel': {
      // disjoint data: the RDP at each order is the maximum over the parts
      const rdp = new Float64Array(orders.length);
      for (const e of event.events) {
        const c = eventCost(e, orders);
        for (let i = 0; i < rdp.length; i++) {
          const v = orders[i]! * c.rho + (c.rdp === null ? 0 : c.rdp[i]!);
          if (v > rdp[i]!) rdp[i] = v;
        }
      }
      return { rho: 0, rdp };
    }
    default:
      return refuse(event, 'RDP accountant');
  }
}
