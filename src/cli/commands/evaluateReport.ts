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
  readonly estimates: readonly {
    readonly estimator: EstimatorId;
    readonly value: number;
    readonly interval: readonly [number, number];
    readonly effectiveSampleSize: number;
    readonly relative: number;
    readonly relativeInterval: readonly [number, number];
  }[];
}

type Report = typeof import('../../experiments/report/index.js');

const NAMES: Readonly<Record<EstimatorId, string>> = {
  replay: 'Replay',
  ipw: 'IPW',
  snipw: 'SNIPW',
  dm: 'DM',
  dr: 'DR',
};

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
  logging: { readonly value: number; readonly interval: readonly [number, number] },
  caption: string,
): ReportTable {
  const f = (x: number) => r.formatNumber(x, 4);
  const rows: string[][] = [];
  const raw: (string | number | null)[][] = [];
  rows.push([
    'Logging policy (logged rewards)',
    '-',
    '-',
    ...estimators.map(() => `${f(logging.value)} [${f(logging.interval[0])}, ${f(logging.interval[1])}]`),
  ]);
  raw.push(['logging', null, null, ...estimators.map(() => logging.value)]);
  for (const s of settings) {
    rows.push([
      s.displayName,
      s.epsilon === null ? 'non-private' : String(s.epsilon),
      s.epsilonSpent === null ? '-' : r.formatNumber(s.epsilonSpent, 3),
      ...estimators.map((id) => {
        const e = s.estimates.find((x) => x.estimator === id)!;
        return `${f(e.value)} [${f(e.interval[0])}, ${f(e.interval[1])}] (${r.formatSignedPercent(e.relative - 1)})`;
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
    title: 'Estimated value per round, 95% bootstrap interval (change vs the logging policy)',
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
