/**
 * Position-wise IPW for logs with a display position (`slot`), as Open Bandit Pipeline weights a
 * logged row (ideas only): each row of the log is one (impression, slot) decision, its candidates the
 * items that could be shown there, its propensity the logging policy's probability of the shown
 * item at that slot, and the evaluated policy's probability is the one it gives that item at that
 * slot (a `--target` file gives it per row, i.e. per slot). The weight of row t is
 * w_t = pi(a_t | x_t, slot_t) / p_t, and
 *
 * - the value per row (OBP's policy value: the mean over every row, whatever its slot) is
 *   (1/n) sum_t w_t r_t, the plain IPW of the rows;
 * - the value at slot s is V_s = (1/n_s) sum_{t: slot_t = s} w_t r_t, with a normal interval
 *   V_s +- z sd_s / sqrt(n_s) (sd_s: the sample standard deviation of w_t r_t at that slot);
 * - the value per impression (expected clicks when every impression fills every slot) is sum_s V_s.
 *
 * A row without a slot is refused: a log is slotted throughout or not at all.
 */
import { importanceWeights } from './importanceWeights.js';
import { checkOpeInput, type OpeInput } from './OpeInput.js';

/** The estimate at one slot. */
export interface SlotEstimate {
  readonly slot: number;
  readonly rows: number;
  readonly value: number;
  readonly interval: readonly [number, number];
}

export interface SlotIpwResult {
  /** Per slot, in increasing slot order. */
  readonly slots: readonly SlotEstimate[];
  /** Mean over all rows of w_t r_t (Open Bandit Pipeline's IPW policy value). */
  readonly perRow: number;
  /** sum over slots of V_s: expected reward per impression that fills every slot. */
  readonly perImpression: number;
  readonly perImpressionInterval: readonly [number, number];
}

/**
 * @param slots - the slot of each round of `input` (non-negative integers), length n.
 * @param z - normal quantile of the intervals (1.959964 for 95%).
 * @example
 * // two rows at slot 0 (w r = 2, 0) and one at slot 1 (w r = 1)
 * slotIpw(input, Int32Array.of(0, 0, 1), 1.96);
 * // returns { slots: [{ slot: 0, rows: 2, value: 1, ... }, { slot: 1, rows: 1, value: 1, ... }], perRow: 1, perImpression: 2, ... }
 */
export function slotIpw(input: OpeInput, slots: Int32Array, z: number): SlotIpwResult {
  const n = checkOpeInput(input);
  if (slots.length !== n) {
    throw new RangeError(`slotIpw: slots must have one entry per round (${n}). Got ${slots.length}.`);
  }
  const w = importanceWeights(input);
  const sums = new Map<number, { n: number; s: number; s2: number }>();
  let total = 0;
  for (let t = 0; t < n; t++) {
    const s = slots[t]!;
    if (!(Number.isSafeInteger(s) && s >= 0)) {
      throw new RangeError(
        `slotIpw: every round needs a slot (a non-negative integer); round ${t} has ${s < 0 ? 'none' : s}.`,
      );
    }
    const v = w[t]! * input.rewards[t]!;
    total += v;
    const acc = sums.get(s) ?? { n: 0, s: 0, s2: 0 };
    acc.n++;
    acc.s += v;
    acc.s2 += v * v;
    sums.set(s, acc);
  }
  const out: SlotEstimate[] = [];
  let perImpression = 0;
  let variance = 0;
  for (const slot of [...sums.keys()].sort((a, b) => a - b)) {
    const acc = sums.get(slot)!;
    const mean = acc.s / acc.n;
    const sampleVar = acc.n > 1 ? Math.max(0, (acc.s2 - acc.n * mean * mean) / (acc.n - 1)) : 0;
    const half = z * Math.sqrt(sampleVar / acc.n);
    perImpression += mean;
    variance += sampleVar / acc.n;
    out.push(
      Object.freeze({
        slot,
        rows: acc.n,
        value: mean,
        interval: Object.freeze([mean - half, mean + half]) as readonly [number, number],
      }),
    );
  }
  const h = z * Math.sqrt(variance);
  return Object.freeze({
    slots: Object.freeze(out),
    perRow: total / n,
    perImpression,
    perImpressionInterval: Object.freeze([perImpression - h, perImpression + h]) as readonly [number, number],
  });
}
