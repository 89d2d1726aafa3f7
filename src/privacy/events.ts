/**
 * Privacy events: readonly records of what a mechanism released, read by the accountants
 * (zCDP in `zcdp.ts`, RDP in `subsampledGaussianRdp.ts`, both through `eventCost.ts`) and the
 * ledger. Events are plain data: they can be logged, serialised and composed without running
 * anything. Build them with the validating constructors below, never by hand from user input.
 */

/** One noisy release, or a composition of releases. */
export type PrivacyEvent =
  /** Gaussian mechanism: L2 sensitivity `sensitivity`, noise N(0, sigma^2 I). rho = sensitivity^2 / (2 sigma^2). */
  | { readonly kind: 'gaussian'; readonly sensitivity: number; readonly sigma: number }
  /**
   * Poisson-subsampled Gaussian: each record is included with probability `q`, sensitivity 1,
   * noise N(0, sigma^2 I) (so `sigma` is the noise multiplier). Accounted with RDP
   * (Mironov, Talwar & Zhang 2019); q = 1 is the plain Gaussian.
   */
  | { readonly kind: 'subsampledGaussian'; readonly q: number; readonly sigma: number }
  /** Any rho-zCDP release (Bun & Steinke 2016). */
  | { readonly kind: 'zcdp'; readonly rho: number }
  /** `count` releases of `event` on the same data (sequential self-composition). */
  | { readonly kind: 'selfComposed'; readonly event: PrivacyEvent; readonly count: number }
  /** Releases on the same data, one after another (sequential composition: costs add). */
  | { readonly kind: 'composed'; readonly events: readonly PrivacyEvent[] }
  /** Releases on disjoint parts of the data (parallel composition: the cost is the maximum). */
  | { readonly kind: 'parallel'; readonly events: readonly PrivacyEvent[] };

/** The `kind` tags of {@link PrivacyEvent}. */
export type PrivacyEventKind = PrivacyEvent['kind'];

function checkPositiveFinite(where: string, name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${where}: ${name} must be a positive finite number. Got ${String(value)}.`);
  }
}

/**
 * A Gaussian mechanism release.
 * @param sensitivity L2 sensitivity, > 0 and finite.
 * @param sigma noise standard deviation, > 0 and finite.
 * @example gaussianEvent(1, 2) // { kind: 'gaussian', sensitivity: 1, sigma: 2 } (rho = 0.125)
 */
export function gaussianEvent(sensitivity: number, sigma: number): PrivacyEvent {
  checkPositiveFinite('gaussianEvent', 'sensitivity', sensitivity);
  checkPositiveFinite('gaussianEvent', 'sigma', sigma);
  return Object.freeze({ kind: 'gaussian', sensitivity, sigma });
}

/**
 * A Poisson-subsampled Gaussian release with sensitivity 1.
 * @param q sampling rate in (0, 1].
 * @param sigma noise multiplier, > 0 and finite.
 * @example subsampledGaussianEvent(0.3, 4) // { kind: 'subsampledGaussian', q: 0.3, sigma: 4 }
 */
export function subsampledGaussianEvent(q: number, sigma: number): PrivacyEvent {
  if (typeof q !== 'number' || !(q > 0 && q <= 1)) {
    throw new RangeError(`subsampledGaussianEvent: q must be in (0, 1]. Got ${String(q)}.`);
  }
  checkPositiveFinite('subsampledGaussianEvent', 'sigma', sigma);
  return Object.freeze({ kind: 'subsampledGaussian', q, sigma });
}

/**
 * A rho-zCDP release.
 * @param rho >= 0 and finite (0 is a release that reveals nothing).
 * @example zcdpEvent(0.45) // { kind: 'zcdp', rho: 0.45 }
 */
export function zcdpEvent(rho: number): PrivacyEvent {
  if (typeof rho !== 'number' || !Number.isFinite(rho) || rho < 0) {
    throw new RangeError(`zcdpEvent: rho must be a finite number >= 0. Got ${String(rho)}.`);
  }
  return Object.freeze({ kind: 'zcdp', rho });
}

/**
 * `count` sequential repetitions of `event` on the same data.
 * @param count a positive safe integer.
 * @example selfComposedEvent(zcdpEvent(0.01), 100) // costs rho = 1
 */
export function selfComposedEvent(event: PrivacyEvent, count: number): PrivacyEvent {
  assertPrivacyEvent(event, 'selfComposedEvent: event');
  if (!Number.isSafeInteger(count) || count <= 0) {
    throw new RangeError(`selfComposedEvent: count must be a positive integer. Got ${String(count)}.`);
  }
  return Object.freeze({ kind: 'selfComposed', event, count });
}

/**
 * Sequential composition of releases on the same data (costs add).
 * @example composedEvent([zcdpEvent(0.1), gaussianEvent(1, 1)]) // rho = 0.6
 */
export function composedEvent(events: readonly PrivacyEvent[]): PrivacyEvent {
  if (!Array.isArray(events) || events.length === 0) {
    throw new RangeError('composedEvent: events must be a non-empty array of privacy events.');
  }
  events.forEach((e, i) => {
    assertPrivacyEvent(e, `composedEvent: events[${i}]`);
  });
  return Object.freeze({ kind: 'composed', events: Object.freeze([...events]) });
}

/**
 * Parallel composition of releases on disjoint parts of the data (the cost is the maximum).
 * @example parallelEvent([zcdpEvent(0.1), zcdpEvent(0.3)]) // rho = 0.3
 */
export function parallelEvent(events: readonly PrivacyEvent[]): PrivacyEvent {
  if (!Array.isArray(events) || events.length === 0) {
    throw new RangeError('parallelEvent: events must be a non-empty array of privacy events.');
  }
  events.forEach((e, i) => {
    assertPrivacyEvent(e, `parallelEvent: events[${i}]`);
  });
  return Object.freeze({ kind: 'parallel', events: Object.freeze([...events]) });
}

/**
 * Checks that `value` is a well-formed {@link PrivacyEvent} (recursively), e.g. one read back from
 * JSON. Throws a RangeError naming `where`, the field and the rule otherwise. Unknown kinds are
 * refused here too, never treated as free.
 */
export function assertPrivacyEvent(value: unknown, where = 'privacy event'): asserts value is PrivacyEvent {
  if (typeof value !== 'object' || value === null) {
    throw new RangeError(`${where} must be a privacy event object. Got ${String(value)}.`);
  }
  const e = value as Record<string, unknown>;
  const num = (k: string): number => e[k] as number;
  switch (e.kind) {
    case 'gaussian':
      checkPositiveFinite(where, 'sensitivity', num('sensitivity'));
      checkPositiveFinite(where, 'sigma', num('sigma'));
      return;
    case 'subsampledGaussian':
      if (typeof e.q !== 'number' || !(e.q > 0 && e.q <= 1)) {
        throw new RangeError(`${where}: q must be in (0, 1]. Got ${String(e.q)}.`);
      }
      checkPositiveFinite(where, 'sigma', num('sigma'));
      return;
    case 'zcdp':
      if (typeof e.rho !== 'number' || !Number.isFinite(e.rho) || e.rho < 0) {
        throw new RangeError(`${where}: rho must be a finite number >= 0. Got ${String(e.rho)}.`);
      }
      return;
    case 'selfComposed':
      if (!Number.isSafeInteger(e.count) || num('count') <= 0) {
        throw new RangeError(`${where}: count must be a positive integer. Got ${String(e.count)}.`);
      }
      assertPrivacyEvent(e.event, `${where}.event`);
      return;
    case 'composed':
    case 'parallel':
      if (!Array.isArray(e.events) || e.events.length === 0) {
        throw new RangeError(`${where}: events must be a non-empty array.`);
      }
      (e.events as unknown[]).forEach((x, i) => {
        assertPrivacyEvent(x, `${where}.events[${i}]`);
      });
      return;
    default:
      throw new RangeError(`${where}: unknown privacy event kind ${JSON.stringify(e.kind)}.`);
  }
}

/**
 * A short human-readable description of an event.
 * @example describeEvent(gaussianEvent(1, 2)) // 'gaussian(sensitivity=1, sigma=2)'
 */
export function describeEvent(event: PrivacyEvent): string {
  switch (event.kind) {
    case 'gaussian':
      return `gaussian(sensitivity=${event.sensitivity}, sigma=${event.sigma})`;
    case 'subsampledGaussian':
      return `subsampledGaussian(q=${event.q}, sigma=${event.sigma})`;
    case 'zcdp':
      return `zcdp(rho=${event.rho})`;
    case 'selfComposed':
      return `${event.count} x ${describeEvent(event.event)}`;
    case 'composed':
      return `composed[${event.events.map(describeEvent).join(', ')}]`;
    case 'parallel':
      return `parallel[${event.events.map(describeEvent).join(', ')}]`;
  }
}
