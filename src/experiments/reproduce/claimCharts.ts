/**
 * Charts of the claims themselves: for each comparison the paper makes (TS - UCB, amplification -
 * none, the tuned decay - UCB, the ablation total), the paired difference with its 95% CI at each
 * epsilon, one series per run that measured it, with zero ("no difference") and the paper's value
 * or range drawn. Built from evaluated (or re-read) claims, so the numbers are those of the parts
 * tables. Colours: Paul Tol's bright scheme (colour-blind safe); the paper's figure in grey.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Claim } from './claims/evaluateClaim.js';
import type { NamedChart } from './syntheticCharts.js';

/**
 * Series colours of the difference charts: Paul Tol's bright blue, red, green and purple (told
 * apart with every common colour-vision deficiency, and dark enough on white).
 */
export const CLAIM_PALETTE: readonly string[] = ['#4477AA', '#EE6677', '#228833', '#AA3377'];

/** One series of a difference chart: the parts of `claim` whose label matches `part` (its epsilon captured). */
export interface DifferenceSeries {
  readonly label: string;
  /** Claim id or title. */
  readonly claim: string;
  /** Matches a part label and captures its epsilon, e.g. /^eps = ([\d.]+): TS vs UCB$/. */
  readonly part: RegExp;
}

/** A difference chart: which claims' parts it draws. */
export interface DifferenceChartPlan {
  readonly name: string;
  readonly title: string;
  readonly yTitle: string;
  readonly series: readonly DifferenceSeries[];
  /** What the marks are, under the title, one string per line (default: the paper's figure in grey, zero dashed, 95% CI bars). */
  readonly subtitle?: readonly string[];
}

/** The paper's figure in a part's paper text: a range, a value ('up to +18%' is 18), or none. */
export function paperFigure(text: string): readonly [number, number] | null {
  if (/not stated/.test(text)) return null;
  const nums = [...text.matchAll(/[+-]?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  if (nums.length === 0) return null;
  if (/ to /.test(text) && nums.length >= 2) return [nums[0]!, nums[1]!];
  return [nums[0]!, nums[0]!];
}

/** The comparison charts of the reproduction (the ones whose claims are present are drawn). */
export const DIFFERENCE_CHARTS: readonly DifferenceChartPlan[] = [
  {
    name: 'claim-ts-vs-ucb',
    title: 'TS - UCB: paired difference in mean reward by epsilon (default settings)',
    yTitle: 'TS vs UCB (% of UCB)',
    series: [
      { label: 'synthetic, main run', claim: 'ts-vs-ucb-default', part: /^eps = ([\d.]+): TS vs UCB$/ },
      { label: 'synthetic, power run', claim: 'power-ts-vs-ucb', part: /^eps = ([\d.]+): TS vs UCB$/ },
      { label: 'MovieLens replay', claim: 'ml-ts-vs-ucb', part: /^eps = ([\d.]+): TS vs UCB/ },
      { label: 'Jester replay', claim: 'jester-gaps', part: /^eps = ([\d.]+): TS vs AdaPrivate-UCB$/ },
    ],
  },
  {
    name: 'claim-amplification',
    title: 'Amplification (q = 0.3) - none: paired difference in mean reward by epsilon',
    yTitle: 'q = 0.3 vs no subsampling (%)',
    series: [
      {
        label: 'synthetic, power run (q = 1)',
        claim: 'power-amplification',
        part: /^eps = ([\d.]+): amplification q = 0.3 vs none/,
      },
      {
        label: 'MovieLens replay (vs AdaPrivate-TS)',
        claim: 'ml-amp',
        part: /^eps = ([\d.]+): Amp \(q = 0.3\) vs TS$/,
      },
    ],
  },
  {
    name: 'claim-tuned-decay',
    title: 'Tuned adaptive decay - default UCB: paired difference by epsilon',
    yTitle: 'TS-Adaptive (tuned) vs UCB (%)',
    series: [
      {
        label: 'synthetic, main run',
        claim: 'ts-adaptive-tuned',
        part: /^eps = ([\d.]+): TS-Adaptive \(tuned\) vs UCB$/,
      },
    ],
  },
  {
    name: 'claim-exact-accounting',
    title: 'Exact - paper accounting (same eps, delta): paired difference in mean reward, AdaPrivate-TS',
    yTitle: 'exact vs zCDP accounting (% of zCDP)',
    subtitle: [
      'both runs are (eps, delta = 1e-5)-DP; the exact accountant adds less noise (not in the paper)',
      'dashed: no difference; bars: 95% CI of the paired difference over seeds',
    ],
    series: [
      {
        label: 'synthetic (expected reward)',
        claim: 'Same guarantee, exact accounting: AdaPrivate-TS by epsilon (synthetic)',
        part: /^eps = ([\d.]+): exact vs paper accounting$/,
      },
      {
        label: 'MovieLens replay (CTR)',
        claim: 'Same guarantee, exact accounting: AdaPrivate-TS by epsilon (MovieLens)',
        part: /^eps = ([\d.]+): exact vs paper accounting$/,
      },
    ],
  },
  {
    name: 'claim-ablation',
    title: 'Ablation: total of the component gains by epsilon (paper: eps = 1 only)',
    yTitle: 'total gain over the baseline (%)',
    series: [
      { label: 'synthetic, main run', claim: 'ablation', part: /^eps = ([\d.]+): total of component gains$/ },
    ],
  },
];

interface Row {
  readonly series: string;
  readonly eps: string;
  readonly mean: number;
  readonly lo: number;
  readonly hi: number;
  readonly verdict: string;
}

/**
 * The Vega-Lite spec of one difference chart: per epsilon (an ordinal axis) a point and a 95% CI
 * bar per series (side by side), the paper's figure as a grey bar (a range) or tick (a value)
 * behind them, and a dashed line at 0 labelled "no difference".
 *
 * @example
 * differenceChartSpec(plan, claims).layer.length; // returns 5
 */
export function differenceChartSpec(
  plan: DifferenceChartPlan,
  claims: readonly Claim[],
): TopLevelSpec | null {
  const rows: Row[] = [];
  const paper = new Map<string, readonly [number, number]>();
  for (const s of plan.series) {
    const claim = claims.find((c) => c.id === s.claim || c.title === s.claim);
    if (claim === undefined) continue;
    for (const p of claim.parts) {
      const m = s.part.exec(p.label);
      if (m === null || p.estimate === undefined) continue;
      const eps = m[1]!;
      rows.push({ series: s.label, eps, ...p.estimate, verdict: p.verdict });
      const f = paperFigure(p.paper);
      if (f !== null && !paper.has(eps)) paper.set(eps, f);
    }
  }
  if (rows.length === 0) return null;
  if (plan.series.length > CLAIM_PALETTE.length)
    throw new RangeError(`differenceChartSpec '${plan.name}': at most ${CLAIM_PALETTE.length} series.`);
  const epsOrder = [...new Set(rows.map((r) => r.eps))].sort((a, b) => Number(a) - Number(b));
  const seriesOrder = plan.series.map((s) => s.label).filter((l) => rows.some((r) => r.series === l));
  const paperRows = [...paper].map(([eps, [lo, hi]]) => ({ eps, lo, hi, what: "paper's figure" }));
  const x = {
    field: 'eps',
    type: 'ordinal' as const,
    title: 'epsilon',
    sort: epsOrder,
    scale: { domain: epsOrder, paddingInner: 0.25 },
    axis: { labelAngle: 0 },
  };
  const color = {
    field: 'series',
    type: 'nominal' as const,
    title: 'ours: mean and 95% CI of the paired difference',
    scale: { domain: seriesOrder, range: CLAIM_PALETTE.slice(0, seriesOrder.length) },
    legend: { orient: 'bottom' as const, direction: 'vertical' as const, titleLimit: 600, labelLimit: 600 },
  };
  // the y domain holds every interval, the paper's figures and 0, with a margin
  const ys = [0, ...rows.flatMap((r) => [r.lo, r.hi]), ...paperRows.flatMap((r) => [r.lo, r.hi])];
  const [yLo, yHi] = [Math.min(...ys), Math.max(...ys)];
  const pad = 0.08 * (yHi - yLo || 1);
  const y = {
    type: 'quantitative' as const,
    title: plan.yTitle,
    scale: { domain: [yLo - pad, yHi + pad], nice: true },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: plan.title,
      subtitle:
        plan.subtitle ??
        "grey: the paper's value (tick) or range (bar); dashed: no difference; bars: 95% CI of the paired difference over seeds",
    },
    width: Math.max(360, 90 * epsOrder.length),
    height: 260,
    layer: [
      {
        data: { values: paperRows.filter((r) => r.hi > r.lo) },
        mark: { type: 'bar', color: '#DDDDDD', opacity: 0.9 },
        encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' } },
      },
      {
        data: { values: paperRows.filter((r) => r.hi === r.lo) },
        mark: { type: 'tick', color: '#777777', thickness: 3, bandSize: 40 },
        encoding: { x, y: { ...y, field: 'lo' } },
      },
      {
        data: { values: [{ zero: 0 }] },
        mark: { type: 'rule', strokeDash: [5, 4], color: '#000000' },
        encoding: { y: { ...y, field: 'zero' } },
      },
      {
        data: { values: rows },
        mark: { type: 'rule', strokeWidth: 2.2 },
        encoding: {
          x,
          xOffset: { field: 'series', type: 'nominal' as const, sort: seriesOrder },
          y: { ...y, field: 'lo' },
          y2: { field: 'hi' },
          color,
        },
      },
      {
        data: { values: rows },
        mark: { type: 'point', filled: true, size: 55 },
        encoding: {
          x,
          xOffset: { field: 'series', type: 'nominal' as const, sort: seriesOrder },
          y: { ...y, field: 'mean' },
          color,
          tooltip: [
            { field: 'series' },
            { field: 'eps' },
            { field: 'mean' },
            { field: 'lo' },
            { field: 'hi' },
            { field: 'verdict' },
          ],
        },
      },
    ],
    config: { font: 'sans-serif', legend: { labelLimit: 400, titleLimit: 400 } },
  } as TopLevelSpec;
}

/**
 * Every difference chart whose claims are among `claims` (absent claims: chart left out).
 *
 * @example
 * claimCharts(claims).map((c) => c.name); // returns e.g. ['claim-ts-vs-ucb', 'claim-amplification', ...]
 */
export function claimCharts(claims: readonly Claim[]): NamedChart[] {
  const out: NamedChart[] = [];
  for (const plan of DIFFERENCE_CHARTS) {
    const spec = differenceChartSpec(plan, claims);
    if (spec !== null) out.push({ name: plan.name, title: plan.title, spec });
  }
  return out;
}
