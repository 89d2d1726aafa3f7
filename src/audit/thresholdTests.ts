/**
 * The machinery both testers share: split each sample set into a selection half and an evaluation
 * half; on the selection half, learn a projection (the difference of the two sample means, a
 * linear test statistic that is optimal for a mean shift under isotropic noise) and choose the
 * best threshold test by the tester's own criterion; on the evaluation half, count the samples of
 * each input in the chosen rejection region. Because the test is fixed before the evaluation
 * half is looked at, one confidence statement covers the reported bound.
 */

import type { TesterResult } from './PropertyTester.js';

/** A threshold test on projected samples and its counts on one half. */
export interface ThresholdCounts {
  readonly threshold: number;
  readonly region: 'above' | 'below';
  /** Samples of input a / input b in the rejection region. */
  readonly countA: number;
  readonly countB: number;
  /** Samples per input in this half. */
  readonly n: number;
}

/** Most thresholds tried on the selection half (quantiles of the pooled scores). */
const MAX_CANDIDATES = 512;

function project(samples: readonly Float64Array[], w: Float64Array, from: number, to: number): Float64Array {
  const out = new Float64Array(to - from);
  for (let i = from; i < to; i++) {
    const x = samples[i]!;
    let s = 0;
    for (let j = 0; j < w.length; j++) s += w[j]! * x[j]!;
    out[i - from] = s;
  }
  return out.sort();
}

/** Number of values of sorted `s` strictly above `t`. */
function countAbove(s: Float64Array, t: number): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return s.length - lo;
}

/**
 * Chooses the threshold test maximising `score(counts)` on the selection part and returns its
 * counts on the evaluation part. `a` and `b` must have the same length n >= 4 and equal dimensions.
 * `tail` (default 0) excludes thresholds below the `tail` or above the `1 - tail` quantile of the
 * pooled selection scores (estimators that are noisy in the tails otherwise pick a lucky tail).
 * `selectionFraction` (default 0.5, in (0, 1)) is the share of each sample set that selects the test
 * (the first floor(fraction n) samples, at least 2; the rest, at least 2, bound it).
 */
export function selectAndEvaluate(
  a: readonly Float64Array[],
  b: readonly Float64Array[],
  score: (c: ThresholdCounts) => number,
  tail = 0,
  selectionFraction = 0.5,
): { readonly selection: ThresholdCounts; readonly evaluation: ThresholdCounts } {
  const n = Math.min(a.length, b.length);
  if (!(selectionFraction > 0 && selectionFraction < 1)) {
    throw new RangeError(`audit: the selection fraction must be in (0, 1). Got ${selectionFraction}.`);
  }
  const half = Math.min(n - 2, Math.max(2, Math.floor(n * selectionFraction)));
  const dim = a[0]!.length;
  const w = new Float64Array(dim);
  for (let i = 0; i < half; i++) {
    for (let j = 0; j < dim; j++) w[j] = w[j]! + (b[i]![j]! - a[i]![j]!) / half;
  }
  if (w.every((v) => v === 0)) w.fill(1); // no mean shift seen: any fixed direction is a valid test
  const sa = project(a, w, 0, half);
  const sb = project(b, w, 0, half);
  const pooled = Float64Array.from([...sa, ...sb]).sort();
  const candidates: number[] = [];
  const from = Math.floor(tail * pooled.length);
  const to = pooled.length - from;
  const step = Math.max(1, Math.floor((to - from) / MAX_CANDIDATES));
  for (let i = from; i + 1 < to; i += step) {
    // midpoints between distinct values, so ties never straddle a threshold
    let j = i;
    while (j + 1 < pooled.length && pooled[j + 1] === pooled[i]) j++;
    if (j + 1 < pooled.length) candidates.push(0.5 * (pooled[j]! + pooled[j + 1]!));
  }
  if (candidates.length === 0) candidates.push(pooled[0] ?? 0);
  let best: ThresholdCounts | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const t of candidates) {
    const ka = countAbove(sa, t);
    const kb = countAbove(sb, t);
    for (const c of [
      { threshold: t, region: 'above' as const, countA: ka, countB: kb, n: half },
      { threshold: t, region: 'below' as const, countA: half - ka, countB: half - kb, n: half },
    ]) {
      const s = score(c);
      if (s > bestScore) {
        bestScore = s;
        best = c;
      }
    }
  }
  const chosen = best ?? {
    threshold: candidates[0]!,
    region: 'above' as const,
    countA: 0,
    countB: 0,
    n: half,
  };
  const ea = project(a, w, half, n);
  const eb = project(b, w, half, n);
  const m = n - half;
  const ka = countAbove(ea, chosen.threshold);
  const kb = countAbove(eb, chosen.threshold);
  const evaluation: ThresholdCounts =
    chosen.region === 'above'
      ? { threshold: chosen.threshold, region: 'above', countA: ka, countB: kb, n: m }
      : { threshold: chosen.threshold, region: 'below', countA: m - ka, countB: m - kb, n: m };
  return { selection: chosen, evaluation };
}

/** The tester's report of a bound computed from the evaluation counts `e` (selection counts `s`). */
export function testerResult(
  method: 'threshold' | 'gdp',
  bound: { readonly epsilon: number; readonly mu: number | null },
  e: ThresholdCounts,
  s: ThresholdCounts,
  delta: number,
  confidence: number,
): TesterResult {
  return {
    method,
    epsilon: bound.epsilon,
    mu: bound.mu,
    delta,
    confidence,
    threshold: e.threshold,
    region: e.region,
    selectionSamples: s.n,
    evaluationSamples: e.n,
    countA: e.countA,
    countB: e.countB,
  };
}
