/**
 * Vega-Lite specifications of the report's charts. Every chart is one or more series of points
 * (x, mean, 95% CI) drawn as lines with a shaded confidence band, so the same builder serves reward
 * and regret over time, reward vs epsilon, amplification vs q and the robustness sweeps.
 */
import type { TopLevelSpec } from 'vega-lite';

/** One point of a series: the mean over seeds and its 95% confidence interval. */
export interface SeriesPoint {
  readonly x: number;
  readonly mean: number;
  readonly lo: number;
  readonly hi: number;
}

/** A named series (one line and its band). */
export interface ChartSeries {
  readonly label: string;
  readonly points: readonly SeriesPoint[];
}

export interface BandChartOptions {
  readonly title: string;
  readonly xTitle: string;
  readonly yTitle: string;
  /** Default `'linear'`; `'log'` for epsilon axes. */
  readonly xScale?: 'linear' | 'log';
  /** Draw a marker at each point (sweeps with few x values). Default false. */
  readonly points?: boolean;
  /** Include zero in the y domain. Default false. */
  readonly yZero?: boolean;
  /** Plot width in pixels; default 520. */
  readonly width?: number;
  /** Plot height in pixels; default 300. */
  readonly height?: number;
}

/**
 * Builds a Vega-Lite spec with one line (mean) and one translucent band (95% CI) per series; the
 * colour legend lists the series in the given order. Non-finite points are dropped.
 *
 * @example
 * const spec = bandChartSpec([{ label: 'TS', points: [{ x: 1, mean: 0.7, lo: 0.69, hi: 0.71 }] }],
 *   { title: 'Reward', xTitle: 'round', yTitle: 'reward' });
 * spec.title; // returns 'Reward'
 */
export function bandChartSpec(series: readonly ChartSeries[], options: BandChartOptions): TopLevelSpec {
  const labels = series.map((s) => s.label);
  if (new Set(labels).size !== labels.length) {
    throw new RangeError(
      `bandChartSpec "${options.title}": series labels must be unique. Got ${labels.join(', ')}.`,
    );
  }
  const values: { series: string; x: number; mean: number; lo: number; hi: number }[] = [];
  for (const s of series) {
    for (const p of s.points) {
      if (![p.x, p.mean, p.lo, p.hi].every(Number.isFinite)) continue;
      if (options.xScale === 'log' && p.x <= 0) continue;
      values.push({ series: s.label, x: p.x, mean: p.mean, lo: p.lo, hi: p.hi });
    }
  }
  const x = {
    field: 'x',
    type: 'quantitative' as const,
    title: options.xTitle,
    scale: options.xScale === 'log' ? { type: 'log' as const } : { zero: false },
  };
  const color = {
    field: 'series',
    type: 'nominal' as const,
    title: null,
    scale: { domain: labels },
    sort: labels,
  };
  const yScale = { zero: options.yZero ?? false };
  const band = {
    mark: { type: 'area' as const, opacity: 0.18 },
    encoding: {
      x,
      y: { field: 'lo', type: 'quantitative' as const, title: options.yTitle, scale: yScale },
      y2: { field: 'hi' },
      color,
    },
  };
  const line = {
    mark: { type: 'line' as const, point: options.points ?? false, strokeWidth: 1.8 },
    encoding: {
      x,
      y: { field: 'mean', type: 'quantitative' as const, title: options.yTitle, scale: yScale },
      color,
    },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: options.title,
    width: options.width ?? 520,
    height: options.height ?? 300,
    data: { values },
    layer: [band, line],
    config: { legend: { labelLimit: 260 }, font: 'sans-serif' },
  } as TopLevelSpec;
}
