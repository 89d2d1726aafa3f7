/**
 * The charts of the synthetic reproduction as Vega-Lite specs (rendered to SVG by `renderSvg`):
 * reward and regret over time, reward vs epsilon (default and tuned), amplification vs q, the
 * robustness sweeps and group privacy.
 */
import type { TopLevelSpec } from 'vega-lite';
import { policyIds, policyInfo } from '../../policies/index.js';
import { type BandChartOptions, bandChartSpec, type ChartSeries } from '../report/bandChartSpec.js';
import { curveSeries, statsPoint } from '../report/seriesFrom.js';
import type { SettingSummary } from '../types.js';
import { type Cell, epsKey, type SyntheticAnalysis } from './syntheticAnalysis.js';

/** A named chart: `name` is the SVG file's base name. */
export interface NamedChart {
  readonly name: string;
  readonly title: string;
  readonly spec: TopLevelSpec;
}

function percentPoint(x: number, c: Cell) {
  const s = c.percentStats;
  return s === null ? { x, mean: c.percent, lo: c.percent, hi: c.percent } : statsPoint(x, s);
}

/** The methods the paper's claims are about, highlighted in the overview charts. */
export const FOCUS_METHODS: readonly string[] = ['AdaPrivate-TS', 'AdaPrivate-UCB'];

/**
 * The options (all but `highlight`) of the chart `reward-vs-epsilon-tuned`, shared with
 * scripts/rerender-reproduction-docs.mjs, which redraws it from the committed table.
 */
export const TUNED_REWARD_CHART_OPTIONS = {
  title: 'Mean reward vs epsilon (tuned)',
  xTitle: 'epsilon',
  yTitle: 'mean expected reward',
  yBounds: [0, 1],
  xScale: 'log',
  points: true,
} as const satisfies Omit<BandChartOptions, 'highlight'>;

/** The budget whose curves are drawn: 1 when present (the paper's focus), else the first. */
export function curveEpsilon(a: SyntheticAnalysis): number {
  return a.epsilons.includes(1) ? 1 : a.epsilons[0]!;
}

/**
 * The reward-over-time and regret-over-time charts at budget `eps` from each method's setting
 * summary (its checkpoint curves), the methods of the claims highlighted and the others muted.
 * `syntheticCharts` and scripts/rerender-reproduction-curves.mjs draw them with this one function.
 *
 * @example
 * overTimeCharts(1, rows).map((c) => c.name); // returns ['reward-over-time', 'regret-over-time']
 */
export function overTimeCharts(
  eps: number,
  methods: readonly { readonly label: string; readonly summary: SettingSummary }[],
): NamedChart[] {
  const rewardSeries = methods.map((m) => curveSeries(m.summary, 'reward', m.label));
  const regretSeries = methods.map((m) => curveSeries(m.summary, 'regret', m.label));
  const focus = (series: readonly ChartSeries[]) =>
    FOCUS_METHODS.filter((l) => series.some((s) => s.label === l));
  return [
    {
      name: 'reward-over-time',
      title: `Average expected reward over time, eps = ${eps} (default settings, 95% CI bands)`,
      spec: bandChartSpec(rewardSeries, {
        title: `Average reward so far, eps = ${eps}`,
        xTitle: 'round',
        yTitle: 'average expected reward',
        yBounds: [0, 1],
        xInteger: true,
        highlight: focus(rewardSeries),
      }),
    },
    {
      name: 'regret-over-time',
      title: `Cumulative regret over time, eps = ${eps} (default settings, 95% CI bands)`,
      spec: bandChartSpec(regretSeries, {
        title: `Cumulative regret, eps = ${eps}`,
        xTitle: 'round',
        yTitle: 'cumulative regret',
        yZero: true,
        yBounds: [0, Number.POSITIVE_INFINITY],
        xInteger: true,
        highlight: focus(regretSeries),
      }),
    },
  ];
}

/**
 * Every chart of the report.
 *
 * @example
 * syntheticCharts(analysis).map((c) => c.name); // returns ['reward-over-time', 'regret-over-time', ...]
 */
export function syntheticCharts(a: SyntheticAnalysis): NamedChart[] {
  // the methods the claims are about: highlighted, every other method muted
  const focus = (series: readonly ChartSeries[]) =>
    FOCUS_METHODS.filter((l) => series.some((s) => s.label === l));
  const eps = curveEpsilon(a);
  const k = epsKey(eps);
  const charts: NamedChart[] = overTimeCharts(
    eps,
    a.rows.map((r) => ({ label: r.label, summary: a.main[r.id]![k]!.summary })),
  );
  const byEps = (label: string, get: (e: number) => Cell): ChartSeries => ({
    label,
    points: a.epsilons.map((e) => statsPoint(e, get(e).summary.meanReward)),
  });
  const defaultsByEps = a.rows.map((r) => byEps(r.label, (e) => a.main[r.id]![epsKey(e)]!));
  charts.push({
    name: 'reward-vs-epsilon',
    title: 'Mean reward vs epsilon per method (default settings, 95% CI)',
    spec: bandChartSpec(defaultsByEps, {
      highlight: focus(defaultsByEps),
      title: 'Mean reward vs epsilon (defaults)',
      xTitle: 'epsilon',
      yTitle: 'mean expected reward',
      yBounds: [0, 1],
      xScale: 'log',
      points: true,
    }),
  });
  charts.push({
    name: 'reward-vs-epsilon-tuned',
    title: 'Mean reward vs epsilon per method (best setting of each tuning grid, 95% CI)',
    spec: bandChartSpec(
      policyIds.map((id) => byEps(policyInfo(id).displayName, (e) => a.tuned[id]![epsKey(e)]!.best)),
      { highlight: FOCUS_METHODS, ...TUNED_REWARD_CHART_OPTIONS },
    ),
  });
  charts.push({
    name: 'amplification-vs-q',
    title: 'AdaPrivate-TS-Amp: percent of non-private vs subsampling rate q (q = 1: no subsampling)',
    spec: bandChartSpec(
      Object.keys(a.amplification).map((ek) => ({
        label: `eps = ${ek}`,
        points: a.scale.ampQ.map((q) => percentPoint(q, a.amplification[ek]![String(q)]!)),
      })),
      { title: 'Amplification vs q', xTitle: 'q', yTitle: '% of non-private LinTS', points: true },
    ),
  });
  const re = a.scale.robustnessEpsilon;
  charts.push({
    name: 'sweep-batch-size',
    title: `Robustness: batch size B at eps = ${re}`,
    spec: bandChartSpec(
      [
        {
          label: 'AdaPrivate-TS',
          points: a.scale.batchSizes.map((b) => percentPoint(b, a.robustnessB[String(b)]!)),
        },
      ],
      {
        title: `Batch size sweep, eps = ${re}`,
        xTitle: 'B',
        yTitle: '% of non-private LinTS',
        points: true,
        xInteger: true,
      },
    ),
  });
  charts.push({
    name: 'sweep-v',
    title: `Robustness: TS scale v at eps = ${re}`,
    spec: bandChartSpec(
      [{ label: 'AdaPrivate-TS', points: a.scale.vs.map((v) => percentPoint(v, a.robustnessV[String(v)]!)) }],
      { title: `TS scale sweep, eps = ${re}`, xTitle: 'v', yTitle: '% of non-private LinTS', points: true },
    ),
  });
  charts.push({
    name: 'sweep-decay',
    title: `Robustness: adaptive decay grid (v0, gamma) at eps = ${re}`,
    spec: bandChartSpec(
      a.scale.decayGamma.map((g) => ({
        label: `gamma = ${g}`,
        points: a.scale.decayV0.map((v0) => percentPoint(v0, a.robustnessDecay[`${v0}|${g}`]!)),
      })),
      { title: `Decay grid, eps = ${re}`, xTitle: 'v0', yTitle: '% of non-private LinTS', points: true },
    ),
  });
  charts.push({
    name: 'group-privacy',
    title: `Group privacy: percent of non-private vs group size k (user-level eps = ${a.scale.groupEpsilon})`,
    spec: bandChartSpec(
      [{ label: 'AdaPrivate-TS', points: a.group.map(({ budget, cell }) => percentPoint(budget.k, cell)) }],
      {
        title: 'Group privacy',
        xTitle: 'k (records per user)',
        xInteger: true,
        yTitle: '% of non-private LinTS',
        points: true,
        yZero: true,
      },
    ),
  });
  return charts;
}
