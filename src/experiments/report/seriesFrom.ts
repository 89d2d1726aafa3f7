/**
 * Converters from the runner's summaries to chart series.
 */
import type { SeedStats, SettingSummary } from '../types.js';
import type { ChartSeries, SeriesPoint } from './bandChartSpec.js';

/**
 * A chart point at `x` from per-seed statistics (mean and 95% CI).
 *
 * @example
 * statsPoint(1, { n: 2, mean: 0.5, std: 0, ci95: [0.4, 0.6], perSeed: [], seeds: [] }); // returns { x: 1, mean: 0.5, lo: 0.4, hi: 0.6 }
 */
export function statsPoint(x: number, stats: SeedStats): SeriesPoint {
  return { x, mean: stats.mean, lo: stats.ci95[0], hi: stats.ci95[1] };
}

/**
 * The checkpoint curve of a setting as a series: `'reward'` is the average expected reward per
 * round so far, `'regret'` the cumulative regret (empty for replay results, which have none).
 *
 * @example
 * curveSeries(summary, 'reward', 'AdaPrivate-TS').points[0].x; // returns the first checkpoint round, e.g. 500
 */
export function curveSeries(
  summary: SettingSummary,
  metric: 'reward' | 'regret',
  label: string,
): ChartSeries {
  const points: SeriesPoint[] = [];
  for (const c of summary.curve) {
    const m = metric === 'reward' ? c.reward : c.regret;
    if (m === null) continue;
    points.push({ x: c.round, mean: m.mean, lo: m.lo, hi: m.hi });
  }
  return { label, points };
}
