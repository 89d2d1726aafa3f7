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
 * - `mixed` (claims only): some tested part is reproduced and another is not (a claim none of whose
 *   parts is reproduced is 'not reproduced', whatever the mix);
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
  /** Our estimate as numbers (mean and 95% CI), when the part is an estimate (for charts and summaries). */
  readonly estimate?: Estimate;
}

/** Tolerance (percentage points) added around our 95% CI for 'reproduced' by {@link rangeVerdict} (never for 'inconclusive'). */
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
 * THE verdict rule of an estimate against the paper's value or range [a, b] (same unit as `ours`),
 * for effects (synthetic and real data alike) and levels. `nullValue` is what "no effect" means in
 * that unit: 0 for an effect; for a level, the level reached without learning from the protected
 * data (e.g. a real-data run's CTR of the greedy choice of its public warm-start prior).
 * - opposite: our 95% CI excludes the null and our mean lies on the other side of it from the
 *   paper's midpoint;
 * - inconclusive: the paper's [a, b] excludes the null, and our 95% CI itself (not widened) contains
 *   the null and reaches [a, b]: the run cannot tell the paper's figure from no effect;
 * - reproduced: our CI widened by `tolerance` on each side (a margin for rounding and setting)
 *   meets [a, b], and the CI excludes the null when [a, b] does;
 * - not reproduced: otherwise (same side but far, or a CI around the null that excludes the paper).
 * Non-finite estimates give 'not tested'. Hence a run whose interval spans both the paper's figure
 * and the null (a quick run, typically) is never 'reproduced', whatever its mean.
 *
 * @example
 * rangeVerdict({ mean: 1.1, lo: 0.4, hi: 1.8 }, [0.5, 1.5]); // returns 'reproduced'
 * rangeVerdict({ mean: -0.05, lo: -0.1, hi: 0 }, [0.5, 1.5]); // returns 'not reproduced'
 * rangeVerdict({ mean: 71.2, lo: 61.5, hi: 81 }, [71.7, 72.6], 0.5, 70.7); // returns 'inconclusive'
 */
export function rangeVerdict(
  ours: Estimate,
  paper: readonly [number, number],
  tolerance = RANGE_TOLERANCE,
  nullValue = 0,
): Verdict {
  if (![ours.mean, ours.lo, ours.hi, nullValue].every(Number.isFinite)) return 'not tested';
  const [a, b] = paper;
  const containsNull = ours.lo <= nullValue && ours.hi >= nullValue;
  const side = Math.sign((a + b) / 2 - nullValue);
  if (!containsNull && side !== 0 && Math.sign(ours.mean - nullValue) === -side) return 'opposite';
  const paperExcludesNull = a > nullValue || b < nullValue;
  if (paperExcludesNull && containsNull)
    return ours.lo <= b && ours.hi >= a ? 'inconclusive' : 'not reproduced';
  return ours.lo - tolerance <= b && ours.hi + tolerance >= a ? 'reproduced' : 'not reproduced';
}

/**
 * A direction with its uncertainty: reproduced when the 95% CI lies above 0, opposite when it lies
 * below 0, inconclusive when it contains 0 (the run cannot tell the sign). Non-finite: 'not tested'.
 *
 * @example
 * positiveVerdict({ mean: 2, lo: 0.5, hi: 3.5 }); // returns 'reproduced'
 * positiveVerdict({ mean: 0.2, lo: -0.5, hi: 0.9 }); // returns 'inconclusive'
 */
export function positiveVerdict(ours: Estimate): Verdict {
  if (![ours.mean, ours.lo, ours.hi].every(Number.isFinite)) return 'not tested';
  if (ours.lo > 0) return 'reproduced';
  if (ours.hi < 0) return 'opposite';
  return 'inconclusive';
}

/**
 * A significance claim: a paired t-test below `alpha` with the paper's sign is reproduced, with the
 * other sign opposite; a test that is not significant is inconclusive when the effect's 95% CI (not
 * widened) still reaches the paper's effect [a, b], otherwise not reproduced.
 *
 * @example
 * significanceVerdict(0.003, { mean: 1.2, lo: 0.6, hi: 1.8 }, 0.01, [0.5, 1.5]); // returns 'reproduced'
 */
export function significanceVerdict(
  pValue: number,
  effect: Estimate,
  alpha: number,
  paper: readonly [number, number],
): Verdict {
  if (!Number.isFinite(pValue) || !Number.isFinite(effect.mean)) return 'not tested';
  const [a, b] = paper;
  if (pValue < alpha) return Math.sign(effect.mean) === Math.sign((a + b) / 2) ? 'reproduced' : 'opposite';
  return effect.lo <= b && effect.hi >= a ? 'inconclusive' : 'not reproduced';
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

/**
 * An upper bound: reproduced when `value` is at most `bound + tolerance` (strictly below it when
 * `strict`), otherwise not reproduced; NaN gives 'not tested'.
 *
 * @example
 * atMostVerdict(0.3, 0.4, 0.5); // returns 'reproduced'
 */
export function atMostVerdict(value: number, bound: number, tolerance = 0, strict = false): Verdict {
  if (!Number.isFinite(value)) return 'not tested';
  const limit = bound + tolerance;
  return (strict ? value < limit : value <= limit) ? 'reproduced' : 'not reproduced';
}

/**
 * A direction: reproduced when `value` is positive, otherwise not reproduced; NaN gives 'not tested'.
 *
 * @example
 * signVerdict(-0.2); // returns 'not reproduced'
 */
export function signVerdict(value: number): Verdict {
  if (Number.isNaN(value)) return 'not tested';
  return value > 0 ? 'reproduced' : 'not reproduced';
}

/**
 * A best setting: reproduced when `chosen` is one the paper names (`among`); inconclusive when it
 * is not but a named one is `close` (its CI reaches the chosen one's); otherwise not reproduced.
 * 'not tested' when no named setting was among the run's `candidates`.
 *
 * @example
 * choiceVerdict(0.5, [0.3], [0.1, 0.3, 0.5], [0.3]); // returns 'inconclusive'
 */
export function choiceVerdict(
  chosen: number | string,
  among: readonly (number | string)[],
  candidates: readonly (number | string)[],
  close: readonly (number | string)[] = [],
): Verdict {
  if (!among.some((x) => candidates.includes(x))) return 'not tested';
  if (among.includes(chosen)) return 'reproduced';
  return among.some((x) => close.includes(x)) ? 'inconclusive' : 'not reproduced';
}

/**
 * A computed number against the paper's: reproduced when |value - target| <= absolute +
 * relative x |target|, otherwise not reproduced; NaN gives 'not tested'.
 *
 * @example
 * matchVerdict(0.4496, 0.45, 5e-4, 0.005); // returns 'reproduced'
 */
export function matchVerdict(value: number, target: number, absolute = 0, relative = 0): Verdict {
  if (!Number.isFinite(value)) return 'not tested';
  return Math.abs(value - target) <= absolute + relative * Math.abs(target) ? 'reproduced' : 'not reproduced';
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
 * that is the claim's; 'mixed' only when some part is reproduced and another is not; when no part is
 * reproduced and they disagree, the claim is 'not reproduced' (its parts' counts say how:
 * {@link verdictSummary}); no tested part: 'not tested'.
 *
 * @example
 * combineVerdicts(['reproduced', 'not reproduced']); // returns 'mixed'
 * combineVerdicts(['not reproduced', 'inconclusive']); // returns 'not reproduced'
 */
export function combineVerdicts(parts: readonly Verdict[]): Verdict {
  const tested = parts.filter((v) => v !== 'not tested');
  if (tested.length === 0) return 'not tested';
  if (tested.every((v) => v === tested[0])) return tested[0]!;
  return tested.includes('reproduced') ? 'mixed' : 'not reproduced';
}

/**
 * A claim's verdict in words with its parts' counts, as the documents print it: 'reproduced (4)'
 * when the parts agree, 'not reproduced (3), inconclusive (7)' when none is reproduced, 'mixed:
 * reproduced (2), not reproduced (2)' otherwise (untested parts listed last, e.g. 'opposite (1),
 * not tested (5)').
 *
 * @example
 * verdictSummary(countVerdicts(['not reproduced', 'inconclusive', 'inconclusive'])); // returns 'not reproduced (1), inconclusive (2)'
 */
export function verdictSummary(c: VerdictCounts): string {
  const list = (vs: readonly Verdict[]) =>
    vs
      .filter((v) => c[v] > 0)
      .map((v) => `${v} (${c[v]})`)
      .join(', ');
  const tested = VERDICTS.filter((v) => v !== 'not tested' && v !== 'mixed' && c[v] > 0);
  const text = list(VERDICTS.filter((v) => v !== 'mixed'));
  if (tested.length === 0) return text === '' ? 'not tested' : text;
  return tested.length > 1 && c.reproduced > 0 ? `mixed: ${text}` : text;
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
 * A level (not an effect) given as a value or range [a, b], e.g. a CTR of 71.7-72.6%, scored by the
 * one rule ({@link rangeVerdict}) with the run's no-learning level as the null. Without a known null
 * the run cannot show it learned anything: a CI that meets the widened range is then
 * 'inconclusive', never 'reproduced'.
 *
 * @example
 * levelVerdict({ mean: 60, lo: 58, hi: 62 }, [71.7, 72.6], 56.2); // returns 'not reproduced'
 * levelVerdict({ mean: 71.2, lo: 61.5, hi: 81 }, [71.7, 72.6], 70.7); // returns 'inconclusive'
 */
export function levelVerdict(
  ours: Estimate,
  paper: readonly [number, number],
  nullValue: number | undefined,
  tolerance = RANGE_TOLERANCE,
): Verdict {
  if (nullValue !== undefined) return rangeVerdict(ours, paper, tolerance, nullValue);
  if (![ours.mean, ours.lo, ours.hi].every(Number.isFinite)) return 'not tested';
  const meets = ours.lo - tolerance <= paper[1] && ours.hi + tolerance >= paper[0];
  return meets ? 'inconclusive' : 'not reproduced';
}
