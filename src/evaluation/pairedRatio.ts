import type { Estimate } from './Estimate.js';
import { percentileInterval } from './ratioBootstrap.js';

/**
 * The ratio of two estimates on the same log with the same bootstrap seed, with the percentile
 * interval of the paired replicate ratios (both estimates were computed on the same resampled
 * rounds, so shared noise cancels: the interval is narrower than the two intervals suggest).
 * Used for "relative to the logging policy" and for the price of privacy (private vs non-private).
 *
 * @example
 * pairedRatio(drOfPrivate, drOfNonPrivate, 0.95); // returns { ratio: ~0.986, interval: [~0.975, ~0.997] }
 */
export function pairedRatio(
  a: Estimate,
  b: Estimate,
  level = 0.95,
): { readonly ratio: number; readonly interval: readonly [number, number] } {
  if (a.replicates.length !== b.replicates.length || a.rounds !== b.rounds) {
    throw new RangeError(
      `pairedRatio: the estimates must come from the same rounds and resamples. Got ${a.rounds} rounds x ${a.replicates.length} resamples and ${b.rounds} x ${b.replicates.length}.`,
    );
  }
  const ratios = new Float64Array(a.replicates.length);
  for (let i = 0; i < ratios.length; i++) ratios[i] = a.replicates[i]! / b.replicates[i]!;
  return { ratio: a.value / b.value, interval: percentileInterval(ratios, level) };
}
