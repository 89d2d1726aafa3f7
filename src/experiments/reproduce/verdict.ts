/**
 * How a reproduction verdict is computed from numbers (never written by hand). Every claim of the
 * paper is split into parts; each part compares our estimate (mean and 95% CI over seeds) with the
 * paper's figure by one of the rules below, and the parts combine into the claim's verdict.
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

/**
 * What happened, per part and per claim:
 * - `reproduced`: our estimate agrees with the paper's figure (rules below);
 * - `not reproduced`: it does not (e.g. the same sign but far from the paper's value, or no effect
 *   where the paper reports one and the run was precise enough to see it);
 * - `opposite`: our effect is significant (95% CI excludes 0) with the other sign;
 * - `inconclusive`: our CI contains both 0 and the paper's value: the run cannot tell them apart;
 * - `mixed` (claims only): tested parts disagree;
 * - `not tested`: the run has no estimate for it.
 */
export type Verdict = 'reproduced' | 'not reproduced' | 'opposite' | 'inconclusive' | 'mixed' | 'not tested';

/** Every verdict word, in display order. */
export const VERDICTS: readonly Verdict[] = [
  'reproduced',
  'not reproduced',
  'opposite',
  'inconclusive',
  'mixed',
  'not tested',
];

/** Our estimate of a quantity: mean over seeds with its 95% confidence interval (t, n - 1 dof). */
export interface Estimate {
  readonly mean: number;
  readonly lo: number;
  readonly hi: number;
  /** Number of seeds behind the interval (for the detectable effect); omitted: unknown. */
  readonly n?: number;
}

/** One checked part of a claim. */
export interface ClaimPart {
  readonly label: string;
  /** The paper's figure, as text (e.g. '+0.5% to +1.5%'). */
  readonly paper: string;
  /** Ours, as text (e.g. '+1.1% [0.4, 1.8], 12 seeds'). */
  readonly ours: string;
  readonly verdict: Verdict;
  /**
   * The smallest effect this run detects with 80% power at the 5% level (two-sided), in the unit
   * of `ours`, as text; null when the part is not a comparison over seeds.
   */
  readonly detectable?: string | null;
}

/** Tolerance (percentage points) added around our 95% CI by {@link rangeVerdict}. */
export const RANGE_TOLERANCE = 0.5;

/**
 * Smallest true effect that a two-sided t-test at the 5% level on these seeds detects with 80%
 * power: (t_{0.975, n-1} + t_{0.80, n-1}) x se, where se is recovered from the 95% CI half-width.
 * NaN without n >= 2 or a finite interval.
 *
 * @example
 * minimumDetectableEffect({ mean: 0, lo: -1.2, hi: 1.1, n: 12 }); // returns ~1.67
 */
export function minimumDetectableEffect(e: Estimate): number {
  const n = e.n ?? 0;
  if (!(n >= 2) || !Number.isFinite(e.lo) || !Number.isFinite(e.hi)) return Number.NaN;
  const t975 = tQuantile(0.975, n - 1);
  const se = (e.hi - e.lo) / 2 / t975;
  return (t975 + tQuantile(0.8, n - 1)) * se;
}

/**
 * Seeds needed for a 95% CI half-width of at most `halfWidth`, from a sample standard deviation.
 *
 * @example
 * seedsForHalfWidth(1.81, 0.5); // returns 53
 */
export function seedsForHalfWidth(std: number, halfWidth: number): number {
  if (!(std >= 0) || !(halfWidth > 0) || !Number.isFinite(std)) return Number.NaN;
  // the smallest n >= 2 with t_{0.975, n-1} std / sqrt(n) <= halfWidth (the left side decreases in n)
  let n = Math.max(2, Math.floor(((1.96 * std) / halfWidth) ** 2));
  while ((tQuantile(0.975, n - 1) * std) / Math.sqrt(n) > halfWidth) n++;
  return n;
}

/**
 * An effect whose paper figure is a value or range [a, b] (same unit as `ours`):
 * - reproduced: our 95% CI widened by `tolerance` on each side meets [a, b], and the CI excludes 0
 *   when [a, b] does;
 * - inconclusive: the widened CI meets [a, b] but the CI also contains 0 while [a, b] does not;
 * - opposite: the CI excludes 0 and our mean has the sign opposite to the paper's midpoint;
 * - not reproduced: otherwise (our CI misses the paper's figure: same sign but far, or no effect).
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
  const containsZero = ours.lo <= 0 && ours.hi >= 0;
  if (ours.lo - tolerance <= b && ours.hi + tolerance >= a) {
    const paperExcludesZero = a > 0 || b < 0;
    return paperExcludesZero && containsZero ? 'inconclusive' : 'reproduced';
  }
  const mid = (a + b) / 2;
  if (!containsZero && mid !== 0 && Math.sign(ours.mean) === -Math.sign(mid)) return 'opposite';
  return 'not reproduced';
}

/**
 * A lower-bound claim "every setting achieves at least `bound`": reproduced if every mean is at
 * least `bound - tolerance`, otherwise not reproduced.
 *
 * @example
 * atLeastVerdict([95.1, 96.2], 94.1); // returns 'reproduced'
 */
export function atLeastVerdict(means: readonly number[], bound: number, tolerance = 1): Verdict {
  if (means.length === 0 || !means.every(Number.isFinite)) return 'not tested';
  return Math.min(...means) >= bound - tolerance ? 'reproduced' : 'not reproduced';
}

/** Number of parts in each verdict class. */
export type VerdictCounts = Readonly<Record<Verdict, number>>;

/**
 * Counts the parts in each verdict class.
 *
 * @example
 * countVerdicts(['reproduced', 'opposite', 'reproduced']).reproduced; // returns 2
 */
export function countVerdicts(parts: readonly Verdict[]): VerdictCounts {
  const c = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const v of parts) c[v]++;
  return c;
}

/**
 * Combines part verdicts: untested parts are ignored; when every tested part has the same verdict,
 * that is the claim's; otherwise 'mixed'; no tested part: 'not tested'.
 *
 * @example
 * combineVerdicts(['reproduced', 'not reproduced']); // returns 'mixed'
 */
export function combineVerdicts(parts: readonly Verdict[]): Verdict {
  const tested = parts.filter((v) => v !== 'not tested');
  if (tested.length === 0) return 'not tested';
  return tested.every((v) => v === tested[0]) ? tested[0]! : 'mixed';
}

/**
 * Text of the counts, e.g. '3 reproduced, 1 not reproduced, 2 inconclusive' (zero classes left out).
 *
 * @example
 * countsText(countVerdicts(['reproduced', 'inconclusive'])); // returns '1 reproduced, 1 inconclusive'
 */
export function countsText(c: VerdictCounts): string {
  return VERDICTS.filter((v) => c[v] > 0)
    .map((v) => `${c[v]} ${v}`)
    .join(', ');
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
