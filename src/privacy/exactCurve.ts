/**
 * The exact accountant's view of a set of releases on the same data: the Gaussian releases as one
 * Gaussian DP part (mu^2 = sum (Delta_i / sigma_i)^2, Dong, Roth & Su 2019) and the Poisson-subsampled
 * releases (q < 1) counted per (q, noise multiplier). epsilon(delta) is the closed form when there is
 * only a Gaussian part (Balle & Wang 2018) or a single subsampled release, else the PLD upper bound
 * (subsampledCompositionPld.ts), with its optimistic value. `discreteMu2` adds the discrete-Gaussian
 * margin (discreteGaussianMargin.ts) for all releases.
 */
import { discreteGaussianDeltaMargin } from './discreteGaussianMargin.js';
import type { PrivacyEvent } from './events.js';
import { gaussianLogDelta, smallestEpsilon } from './gaussianDp.js';
import { type PldOptions, subsampledCompositionPld } from './subsampledCompositionPld.js';
import { subsampledGaussianLogDelta } from './subsampledGaussianExact.js';
import { UnsupportedPrivacyEventError } from './UnsupportedPrivacyEventError.js';
import { zcdpToEpsilonUnchecked } from './zcdp.js';

/** Releases composed on the same data, as the exact accountant keeps them. */
export interface ExactComposition {
  /** Sum of (Delta_i / sigma_i)^2 over the Gaussian releases (q = 1). */
  mu2: number;
  /** Subsampled releases: key `${q}|${noiseMultiplier}` -> count. */
  readonly parts: Map<string, { readonly q: number; readonly s: number; count: number }>;
}

/** The exact epsilon of a composition: the guarantee and the value the truth is at least. */
export interface ExactEpsilon {
  readonly epsilon: number;
  readonly epsilonLower: number;
  /**
   * 'none' (nothing released), 'gdp', 'subsampled-exact', 'pld', or 'zcdp-cks' (discrete noise at large
   * epsilon, where the zCDP bound of the discrete Gaussian is below the margin-based curve).
   */
  readonly method: 'none' | 'gdp' | 'subsampled-exact' | 'pld' | 'zcdp-cks';
}

/** An empty composition. */
export function emptyExactComposition(): ExactComposition {
  return { mu2: 0, parts: new Map() };
}

/**
 * Adds `times` copies of `event` to `c` (sequential composition). Throws UnsupportedPrivacyEventError
 * for events the exact accountant has no curve for (zcdp, parallel inside an event, unknown kinds);
 * check with {@link exactSupports} first so that nothing is half-added.
 */
export function addToExactComposition(c: ExactComposition, event: PrivacyEvent, times = 1): void {
  switch (event.kind) {
    case 'gaussian':
      c.mu2 += (times * (event.sensitivity * event.sensitivity)) / (event.sigma * event.sigma);
      return;
    case 'subsampledGaussian': {
      if (event.q >= 1) {
        c.mu2 += times / (event.sigma * event.sigma);
        return;
      }
      const key = `${event.q}|${event.sigma}`;
      const p = c.parts.get(key);
      if (p === undefined) c.parts.set(key, { q: event.q, s: event.sigma, count: times });
      else p.count += times;
      return;
    }
    case 'selfComposed':
      addToExactComposition(c, event.event, times * event.count);
      return;
    case 'composed':
      for (const e of event.events) addToExactComposition(c, e, times);
      return;
    default:
      refuseExact(event);
  }
}

function refuseExact(event: PrivacyEvent | { kind?: unknown }): never {
  const kind = String((event as { kind?: unknown }).kind);
  const reason =
    kind === 'zcdp'
      ? 'a rho-zCDP release has no exact privacy curve; record the Gaussian release itself, or use the zcdp accountant.'
      : kind === 'parallel'
        ? 'a parallel event inside one record is not supported by the exact accountant; record each part on its own partition of a parallel ledger.'
        : 'unknown event kind (never counted as free).';
  throw new UnsupportedPrivacyEventError(kind, 'exact accountant', reason);
}

/** True when the exact accountant has a curve for every part of `event` (else it refuses it). */
export function exactSupports(event: PrivacyEvent): boolean {
  switch (event.kind) {
    case 'gaussian':
    case 'subsampledGaussian':
      return true;
    case 'selfComposed':
      return exactSupports(event.event);
    case 'composed':
      return event.events.every(exactSupports);
    default:
      return false;
  }
}

/** Throws the exact accountant's typed refusal for `event` when it has no curve for it. */
export function assertExactSupports(event: PrivacyEvent): void {
  if (exactSupports(event)) return;
  const find = (e: PrivacyEvent): PrivacyEvent => {
    if (e.kind === 'selfComposed') return exactSupports(e.event) ? e : find(e.event);
    if (e.kind === 'composed') return find(e.events.find((x) => !exactSupports(x))!);
    return e;
  };
  refuseExact(find(event));
}

/** sum over releases of mu_i^2 for the discrete margin (subsampled releases count 1/s^2 each). */
export function exactMarginMu2(c: ExactComposition): number {
  let m = c.mu2;
  for (const p of c.parts.values()) m += p.count / (p.s * p.s);
  return m;
}

/** A canonical string of a composition (equal compositions have equal curves). */
export function exactSignature(c: ExactComposition): string {
  const parts = [...c.parts.values()].map((p) => `${p.q}|${p.s}|${p.count}`).sort();
  return `${c.mu2};${parts.join(';')}`;
}

/**
 * epsilon(delta) of the composition; `discrete` adds the discrete-Gaussian margin for every release.
 * Cost: closed forms ~20 us; PLD see subsampledCompositionPld.ts.
 */
export function exactEpsilon(
  c: ExactComposition,
  delta: number,
  discrete: boolean,
  pldOptions?: PldOptions,
): ExactEpsilon {
  const parts = [...c.parts.values()];
  if (c.mu2 === 0 && parts.length === 0) return { epsilon: 0, epsilonLower: 0, method: 'none' };
  const marginMu2 = discrete ? exactMarginMu2(c) : 0;
  const margin = (e: number): number => (marginMu2 > 0 ? discreteGaussianDeltaMargin(e, marginMu2) : 0);
  // epsilon of a decreasing curve at delta, with the margin (increasing in epsilon) taken out of delta:
  // solve at delta - margin(cap) and accept when the answer is below cap (then margin(answer) <= margin(cap))
  const withMargin = (solve: (d: number) => number): number => {
    const e0 = solve(delta);
    if (marginMu2 === 0) return e0;
    for (let k = 0; k < 8 && Number.isFinite(e0); k++) {
      const cap = e0 + 0.01 * 2 ** k;
      const extra = margin(cap);
      if (extra >= delta / 2) break;
      const e1 = solve(delta - extra);
      if (e1 <= cap) return e1;
    }
    return Number.POSITIVE_INFINITY;
  };
  const curveEpsilon = (logDeltaOf: (e: number) => number) =>
    withMargin((d) => {
      const logD = Math.log(d);
      return smallestEpsilon((e) => logDeltaOf(e) <= logD);
    });
  if (parts.length === 0) {
    const mu = Math.sqrt(c.mu2);
    const epsilon = curveEpsilon((e) => gaussianLogDelta(e, mu));
    if (discrete) {
      // the discrete Gaussian release is also mu^2/2-zCDP (CKS 2020, Thm 14): at large epsilon, where the
      // margin's e^eps factor dominates, that bound (CKS conversion) is the better of the two valid ones
      const zcdp = zcdpToEpsilonUnchecked(c.mu2 / 2, delta, 'improved');
      if (zcdp < epsilon) return { epsilon: zcdp, epsilonLower: zcdp, method: 'zcdp-cks' };
    }
    return { epsilon, epsilonLower: epsilon, method: 'gdp' };
  }
  if (c.mu2 === 0 && parts.length === 1 && parts[0]!.count === 1) {
    const { q, s } = parts[0]!;
    const epsilon = curveEpsilon((e) => subsampledGaussianLogDelta(e, q, s));
    return { epsilon, epsilonLower: epsilon, method: 'subsampled-exact' };
  }
  const pld = subsampledCompositionPld(
    parts.map((p) => ({ q: p.q, noiseMultiplier: p.s, count: p.count })),
    c.mu2,
    pldOptions,
  );
  const upper = withMargin((d) => pld.epsilon(d).upper);
  return { epsilon: upper, epsilonLower: Math.min(upper, pld.epsilon(delta).lower), method: 'pld' };
}
