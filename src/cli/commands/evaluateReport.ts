/**
 * The report of `adaprivate evaluate`: a table (value of each policy and epsilon with its interval,
 * relative to the logging policy) and a chart (value by epsilon), built with the same report helpers
 * as the reproduction reports (Markdown, HTML, CSV, SVG).
 */

import type { EstimatorId } from '../../evaluation/index.js';
import type { ChartSeries, ReportTable } from '../../experiments/report/index.js';

/** One evaluated setting (policy x epsilon) as reported. */
export interface EvaluatedSetting {
  readonly policy: string;
  readonly displayName: string;
  /** null for non-private policies. */
  readonly epsilon: number | null;
  /** The epsilon the ledger says was spent while evaluating (null: non-private). */
  readonly epsilonSpent: number | null;
  readonly noise: string;
  /** Runs pooled into the intervals (exploration seeds and noise draws). */
  readonly runs: number;
  /** A built-in policy on a log with slots: its position-wise IPW (`--json`, results.json). */
  readonly slots?: Record<string, unknown>;
  readonly estimates: readonly {
    readonly estimator: EstimatorId;
    readonly value: number;
    readonly interval: readonly [number, number];
    readonly effectiveSampleSize: number;
    readonly relative: number;
    readonly relativeInterval: readonly [number, number];
    /** Standard deviation of the estimate across runs (0 for one run). */
    readonly betweenRunSd: number;
    /** Set on DM: 'model-based, for comparison'. */
    readonly modelBased?: string;
    /** A caveat (e.g. no positive reward: one-sided interval). */
    readonly note?: string;
    /** True when the value is outside [0, 1]. */
    readonly outsideRewardRange?: boolean;
  }[];
}

type Report = typeof import('../../experiments/report/index.js');

const NAMES: Readonly<Record<EstimatorId, string>> = {
  replay: 'Replay',
  ipw: 'IPW',
  snipw: 'SNIPW',
  dm: 'DM (model-based, for comparison)',
  dr: 'DR',
};

/** Marks in the table cells: a one-sided interval (no positive reward), a value outside [0, 1]. */
export const ONE_SIDED_MARK = '(one-sided: the log cannot decide)';
export const OUTSIDE_MARK = '(outside [0, 1])';

/**
 * The main table: one row per setting, one "value [lo, hi] (x% of logging)" column per estimator.
 *
 * @example
 * evaluationTable(r, settings, ['ipw', 'dr'], { value: 0.55, interval: [0.54, 0.56] }).rows.length; // returns settings.length + 1
 */
export function evaluationTable(
  r: Report,
  settings: readonly EvaluatedSetting[],
  estimators: readonly EstimatorId[],
  logging: { readonly value: number; readonly interval: readonly [number, number]; readonly note?: string },
  caption: string,
  level = 0.95,
): ReportTable {
  const f = (x: number) => r.formatNumber(x, 4);
  const rows: string[][] = [];
  const raw: (string | number | null)[][] = [];
  const loggingCell =
    logging.note === undefined
      ? `${f(logging.value)} [${f(logging.interval[0])}, ${f(logging.interval[1])}]`
      : `0 [0, ${f(logging.interval[1])}] ${ONE_SIDED_MARK}`;
  rows.push(['Logging policy (logged rewards)', '-', '-', ...estimators.map(() => loggingCell)]);
  raw.push(['logging', null, null, ...estimators.map(() => logging.value)]);
  for (const s of settings) {
    rows.push([
      s.displayName,
      s.epsilon === null ? 'non-private' : String(s.epsilon),
      s.epsilonSpent === null ? '-' : r.formatNumber(s.epsilonSpent, 3),
      ...estimators.map((id) => {
        const e = s.estimates.find((x) => x.estimator === id)!;
        if (e.note !== undefined) return `0 [0, ${f(e.interval[1])}] ${ONE_SIDED_MARK}`;
        const rel = Number.isFinite(e.relative) ? ` (${r.formatSignedPercent(e.relative - 1)})` : '';
        return `${f(e.value)} [${f(e.interval[0])}, ${f(e.interval[1])}]${rel}${e.outsideRewardRange === true ? ` ${OUTSIDE_MARK}` : ''}`;
      }),
    ]);
    raw.push([
      s.policy,
      s.epsilon,
      s.epsilonSpent,
      ...estimators.map((id) => s.estimates.find((x) => x.estimator === id)!.value),
    ]);
  }
  return r.reportTable({
    title: `Estimated value per round, ${Math.round(100 * level)}% interval (change vs the logging policy)`,
    caption,
    columns: [
      { header: 'policy' },
      { header: 'epsilon', align: 'right' },
      { header: 'eps spent', align: 'right' },
      ...estimators.map((id) => ({ header: NAMES[id], align: 'right' as const })),
    ],
    rows,
    raw,
  });
}

/**
 * results.csv: one row per setting and estimator (long form) with the value, its interval, the
 * change vs the logging policy with its interval, the effective sample size, runs and notes; the
 * logging policy first.
 *
 * @example
 * evaluationCsv(r, settings, logging).split('\n')[0]; // returns 'policy,epsilon,eps_spent,estimator,value,lo,hi,...'
 */
export function evaluationCsv(
  r: Report,
  settings: readonly EvaluatedSetting[],
  logging: { readonly value: number; readonly interval: readonly [number, number]; readonly note?: string },
): string {
  const header = [
    'policy',
    'epsilon',
    'eps_spent',
    'estimator',
    'value',
    'lo',
    'hi',
    'change',
    'change_lo',
    'change_hi',
    'effective_sample_size',
    'runs',
    'between_run_sd',
    'note',
  ];
  const rows: (string | number | null)[][] = [
    [
      'logging',
      null,
      null,
      'logged',
      logging.value,
      logging.interval[0],
      logging.interval[1],
      null,
      null,
      null,
      null,
      1,
      0,
      logging.note ?? '',
    ],
  ];
  for (const s of settings) {
    for (const e of s.estimates) {
      const notes = [
        e.modelBased,
        e.note,
        e.outsideRewardRange === true ? 'outside [0, 1]' : undefined,
      ].filter((x) => x !== undefined);
      rows.push([
        s.policy,
        s.epsilon,
        s.epsilonSpent,
        e.estimator,
        e.value,
        e.interval[0],
        e.interval[1],
        Number.isFinite(e.relative) ? e.relative - 1 : null,
        Number.isFinite(e.relativeInterval[0]) ? e.relativeInterval[0] - 1 : null,
        Number.isFinite(e.relativeInterval[1]) ? e.relativeInterval[1] - 1 : null,
        e.effectiveSampleSize,
        s.runs,
        e.betweenRunSd,
        notes.join('; '),
      ]);
    }
  }
  return r.toCsv(header, rows);
}

/**
 * Chart series of the value by epsilon for one estimator: one series per private policy, flat lines
 * for non-private policies and the logging policy across the epsilon range.
 *
 * @example
 * valueByEpsilonSeries(settings, 'dr', logging).map((s) => s.label); // returns e.g. ['AdaPrivate-TS', 'LinTS', 'Logging policy']
 */
export function valueByEpsilonSeries(
  settings: readonly EvaluatedSetting[],
  estimator: EstimatorId,
  logging: { readonly value: number; readonly interval: readonly [number, number] },
): ChartSeries[] {
  const eps = [...new Set(settings.flatMap((s) => (s.epsilon === null ? [] : [s.epsilon])))].sort(
    (a, b) => a - b,
  );
  const xs =
    eps.length === 0 ? [1] : eps.length === 1 ? [eps[0]! / 2, eps[0]! * 2] : [eps[0]!, eps[eps.length - 1]!];
  const flat = (value: number, lo: number, hi: number) => xs.map((x) => ({ x, mean: value, lo, hi }));
  const series = new Map<string, ChartSeries['points'][number][]>();
  for (const s of settings) {
    const e = s.estimates.find((x) => x.estimator === estimator);
    if (e === undefined) continue;
    const label = s.epsilon === null ? `${s.displayName} (non-private)` : s.displayName;
    const points =
      s.epsilon === null
        ? flat(e.value, e.interval[0], e.interval[1])
        : [{ x: s.epsilon, mean: e.value, lo: e.interval[0], hi: e.interval[1] }];
    series.set(label, [...(series.get(label) ?? []), ...points]);
  }
  const out: ChartSeries[] = [...series].map(([label, points]) => ({
    label,
    points: points.sort((a, b) => a.x - b.x),
  }));
  out.push({
    label: 'Logging policy',
    points: flat(logging.value, logging.interval[0], logging.interval[1]),
  });
  return out;
}

/**
 * The value-by-epsilon chart of an evaluation report: the private policies highlighted with their
 * bands, the non-private ones and the logging policy muted (means only), a short band label.
 *
 * @example
 * const spec = valueChartSpec(r, results, 'dr', logging, 0.95, 5);
 * const svg = await r.renderSvg(spec);
 */
export function valueChartSpec(
  r: typeof import('../../experiments/report/index.js'),
  results: readonly EvaluatedSetting[],
  estimator: EstimatorId,
  logging: { readonly value: number; readonly interval: readonly [number, number] },
  level: number,
  runs: number,
): ReturnType<typeof r.bandChartSpec> {
  const series = valueByEpsilonSeries(results, estimator, logging);
  const privateLabels = [...new Set(results.filter((s) => s.epsilon !== null).map((s) => s.displayName))];
  return r.bandChartSpec(series, {
    title: `Estimated value by epsilon (${estimator.toUpperCase()}${estimator === 'dm' ? ', model-based, for comparison' : ''})`,
    xTitle: 'epsilon',
    yTitle: 'value per round',
    xScale: 'log',
    points: true,
    width: 640,
    ...(privateLabels.length > 0 && privateLabels.length < series.length ? { highlight: privateLabels } : {}),
    bandLabel: `shaded: ${Math.round(100 * level)}% bootstrap interval over the logged rounds, ${runs} runs pooled,`,
  });
}
