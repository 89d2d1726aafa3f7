/**
 * How a reproduction verdict is computed from numbers (never written by hand). Every claim of the
 * paper is split into parts; each part compares our estimate (mean and 95% CI over seeds) with the
 * paper's figure by one of the rules below, and the parts combine into the claim's verdict.
 */

/**
 * `inconclusive`: our confidence interval is consistent with the paper's non-zero effect but also
 * with no effect at all (it contains 0), so the run cannot confirm or refute the claim.
 */
export type Verdict = 'reproduced' | 'partly' | 'inconclusive' | 'not reproduced' | 'not tested';

/** Our estimate of a quantity: mean over seeds with its 95% confidence interval. */
export interface Estimate {
  readonly mean: number;
  readonly lo: number;
  readonly hi: number;
}

/** One checked part of a claim. */
export interface ClaimPart {
  readonly label: string;
  /** The paper's figure, as text (e.g. '+0.5% to +1.5%'). */
  readonly paper: string;
  /** Ours, as text (e.g. '+1.1% [0.4, 1.8], 12 seeds'). */
  readonly ours: string;
  readonly verdict: Verdict;
}

/** Tolerance (percentage points) added around our 95% CI by {@link rangeVerdict}. */
export const RANGE_TOLERANCE = 0.5;

/**
 * A paper figure given as a value or range [a, b] (same unit as `ours`):
 * - reproduced: our 95% CI widened by `tolerance` on each side meets [a, b], and the CI does not
 *   contain 0 when the paper's range excludes 0;
 * - inconclusive: the widened CI meets [a, b] but the CI also contains 0 while [a, b] does not
 *   (too few seeds to tell the paper's effect from no effect);
 * - partly: otherwise, but our mean has the sign of the paper's midpoint (same direction of effect);
 * - not reproduced: otherwise (opposite direction, or zero).
 * Non-finite estimates give 'not tested'.
 *
 * @example
 * rangeVerdict({ mean: 1.1, lo: 0.4, hi: 1.8 }, [0.5, 1.5]); // returns 'reproduced'
 */
export function rangeVerdict(
  ours: Estimate,
  paper: readonly [number, number],
  tolerance = RANGE_TOLERANCE,
): Verdict {
  if (![ours.mean, ours.lo, ours.hi].every(Number.isFinite)) return 'not tested';
  const [a, b] = paper;
  if (ours.lo - tolerance <= b && ours.hi + tolerance >= a) {
    const paperExcludesZero = a > 0 || b < 0;
    return paperExcludesZero && ours.lo <= 0 && ours.hi >= 0 ? 'inconclusive' : 'reproduced';
  }
  const mid = (a + b) / 2;
  if (ours.mean !== 0 && Math.sign(ours.mean) === Math.sign(mid)) return 'partly';
  return 'not reproduced';
}

/**
 * A lower-bound claim "every setting achieves at least `bound`": reproduced if every mean is at
 * least `bound - tolerance`; partly if the worst mean is at least `bound - 5 * tolerance`; else not.
 *
 * @example
 * atLeastVerdict([95.1, 96.2], 94.1); // returns 'reproduced'
 */
export function atLeastVerdict(means: readonly number[], bound: number, tolerance = 1): Verdict {
  if (means.length === 0 || !means.every(Number.isFinite)) return 'not tested';
  const worst = Math.min(...means);
  if (worst >= bound - tolerance) return 'reproduced';
  if (worst >= bound - 5 * tolerance) return 'partly';
  return 'not reproduced';
}

/**
 * Combines part verdicts: untested parts are ignored; all reproduced -> reproduced; all not
 * reproduced -> not reproduced; all inconclusive -> inconclusive; anything else -> partly; no tested
 * part -> not tested.
 *
 * @example
 * combineVerdicts(['reproduced', 'not reproduced']); // returns 'partly'
 */
export function combineVerdicts(parts: readonly Verdict[]): Verdict {
  const tested = parts.filter((v) => v !== 'not tested');
  if (tested.length === 0) return 'not tested';
  if (tested.every((v) => v === 'reproduced')) return 'reproduced';
  if (tested.every((v) => v === 'not reproduced')) return 'not reproduced';
  if (tested.every((v) => v === 'inconclusive')) return 'inconclusive';
  return 'partly';
}

/**
 * A level (not an effect) given as a value or range [a, b], e.g. a CTR of 71.7-72.6%:
 * - reproduced: our mean lies in [a, b] widened by `tolerance` on each side;
 * - inconclusive: it does not, but our 95% CI (widened by `tolerance`) still meets [a, b];
 * - not reproduced: the widened CI misses [a, b].
 * Non-finite estimates give 'not tested'.
 *
 * @example
 * levelVerdict({ mean: 60, lo: 58, hi: 62 }, [71.7, 72.6]); // returns 'not reproduced'
 */
export function levelVerdict(
  ours: Estimate,
  paper: readonly [number, number],
  tolerance = RANGE_TOLERANCE,
): Verdict {
  if (![ours.mean, ours.lo, ours.hi].every(Number.isFinite)) return 'not tested';
  const [a, b] = paper;
  if (ours.mean >= a - tolerance && ours.mean <= b + tolerance) return 'reproduced';
  return ours.lo - tolerance <= b && ours.hi + tolerance >= a ? 'inconclusive' : 'not reproduced';
}
