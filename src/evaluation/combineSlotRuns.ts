/**
 * Position-wise IPW of a randomised or private policy over R runs (its exploration seeds and noise
 * draws), combined as `combineRuns` combines the other estimators: per slot the value is the mean
 * of the R runs' V_s, and the interval's variance is the mean within-run variance (each run's
 * normal-interval variance) plus the between-run variance of V_s (sample variance over the runs),
 * so the interval covers the sampling of the rows and the policy's own randomness. The per-impression
 * value sum_s V_s is combined the same way; the per-row value is the mean over runs.
 */
import type { SlotEstimate, SlotIpwResult } from './slotIpw.js';

/** Variance of a normal interval value +- z sd. */
const varianceOf = (interval: readonly [number, number], z: number) =>
  ((interval[1] - interval[0]) / (2 * z)) ** 2;

function mixture(
  values: readonly number[],
  variances: readonly number[],
): { mean: number; variance: number } {
  const r = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / r;
  const within = variances.reduce((a, b) => a + b, 0) / r;
  const between = r > 1 ? values.reduce((a, v) => a + (v - mean) ** 2, 0) / (r - 1) : 0;
  return { mean, variance: within + between };
}

const frozen = (v: number, h: number) => Object.freeze([v - h, v + h]) as readonly [number, number];

/**
 * @param runs - `slotIpw` of each run on the same log (the same slots), at least one.
 * @param z - the normal quantile the runs' intervals were made with.
 * @example
 * combineSlotRuns([slotIpw(input1, slots, 1.96), slotIpw(input2, slots, 1.96)], 1.96);
 */
export function combineSlotRuns(runs: readonly SlotIpwResult[], z: number): SlotIpwResult {
  if (runs.length === 0) throw new RangeError('combineSlotRuns: needs at least one run.');
  if (!(z > 0)) throw new RangeError(`combineSlotRuns: z must be > 0. Got ${z}.`);
  const first = runs[0]!;
  for (const r of runs) {
    if (r.slots.length !== first.slots.length || r.slots.some((s, i) => s.slot !== first.slots[i]!.slot)) {
      throw new RangeError('combineSlotRuns: every run must have the same slots (runs on one log).');
    }
  }
  const slots: SlotEstimate[] = first.slots.map((s, i) => {
    const m = mixture(
      runs.map((r) => r.slots[i]!.value),
      runs.map((r) => varianceOf(r.slots[i]!.interval, z)),
    );
    return Object.freeze({
      slot: s.slot,
      rows: s.rows,
      value: m.mean,
      interval: frozen(m.mean, z * Math.sqrt(m.variance)),
    });
  });
  const imp = mixture(
    runs.map((r) => r.perImpression),
    runs.map((r) => varianceOf(r.perImpressionInterval, z)),
  );
  return Object.freeze({
    slots: Object.freeze(slots),
    perRow: runs.reduce((a, r) => a + r.perRow, 0) / runs.length,
    perImpression: imp.mean,
    perImpressionInterval: frozen(imp.mean, z * Math.sqrt(imp.variance)),
  });
}
