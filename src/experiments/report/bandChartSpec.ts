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
  /**
   * Range of the y quantity (e.g. [0, 1] for rewards and CTR): means and bands are clipped to it,
   * so no band reaches past what the quantity can take. Default: unbounded.
   */
  readonly yBounds?: readonly [number, number];
  /** The x values are integers (rounds, batch sizes): ticks are labelled as integers. Default false. */
  readonly xInteger?: boolean;
  /**
   * Confidence bands are drawn for the first `maxBands` series only (default 2: more overlapping
   * translucent bands blend into one muddy block), and the chart's subtitle names them.
   */
  readonly maxBands?: number;
  /**
   * The series of interest (labels): drawn in the palette's colours, thick and with their bands;
   * every other series is muted (thin, light grey, means only). Default: none (every series in
   * its own colour).
   */
  readonly highlight?: readonly string[];
  /**
   * What the bands are, in the subtitle (e.g. 'shaded: 95% bootstrap interval of each estimate').
   * Default {@link BAND_LABEL} (each series' own 95% CI over seeds).
   */
  readonly bandLabel?: string;
}

/** Colour of muted series in a chart with highlighted ones. */
export const MUTED_COLOUR = '#BBBBBB';

/** What a band of {@link bandChartSpec} is: each series' own 95% CI of its mean over seeds. */
export const BAND_LABEL =
  "shaded: each series' own 95% CI over seeds (not the CI of a difference between series)";

/**
 * Twelve colours that stay distinct from one another: Paul Tol's "bright" qualitative scheme and
 * four of his "muted" colours, plus black, brown and grey in place of his wine and olive (which sat
 * at CIE76 distance 14 and 17 from his purple and yellow). Every pair is at least 30 apart in CIE
 * L*a*b*, so no two series of a chart look alike.
 */
export const SERIES_PALETTE: readonly string[] = [
  '#4477AA',
  '#EE6677',
  '#228833',
  '#CCBB44',
  '#66CCEE',
  '#AA3377',
  '#332288',
  '#000000',
  '#EE7733',
  '#8C564B',
  '#44AA99',
  '#888888',
];

/**
 * Twelve dash patterns (Vega `strokeDash` arrays; [] is solid), one per series in legend order: the
 * first series is solid and every other one has a pattern of its own, so series stay apart where
 * their colours do not: the muted ones, which share one grey, lines drawn over one another (a
 * dashed line lets the one under it show), and a reader who cannot tell the colours apart.
 */
export const DASH_PATTERNS: readonly (readonly number[])[] = [
  [],
  [7, 3],
  [2, 2],
  [10, 3, 2, 3],
  [16, 5],
  [5, 2, 1, 2, 1, 2],
  [1, 4],
  [14, 3, 4, 3],
  [4, 6],
  [6, 2, 2, 2, 2, 2],
  [22, 4],
  [2, 8],
];

/**
 * Builds a Vega-Lite spec with one line (mean) per series, each in its own colour of
 * {@link SERIES_PALETTE} (muted ones grey) and its own dash pattern of {@link DASH_PATTERNS} (the
 * first series solid), and a translucent 95% CI band for the first `maxBands` series; the legend
 * shows colour and dash and lists the series in the given order (highlighted ones first).
 * Non-finite points are dropped.
 *
 * @example
 * const spec = bandChartSpec([{ label: 'TS', points: [{ x: 1, mean: 0.7, lo: 0.69, hi: 0.71 }] }],
 *   { title: 'Reward', xTitle: 'round', yTitle: 'reward' });
 * spec.title; // returns { text: 'Reward', subtitle: BAND_LABEL }
 */
export function bandChartSpec(series: readonly ChartSeries[], options: BandChartOptions): TopLevelSpec {
  const labels = series.map((s) => s.label);
  if (labels.length > SERIES_PALETTE.length) {
    throw new RangeError(
      `bandChartSpec "${options.title}": at most ${SERIES_PALETTE.length} series (distinct colours); use facets for more. Got ${labels.length}.`,
    );
  }
  if (new Set(labels).size !== labels.length) {
    throw new RangeError(
      `bandChartSpec "${options.title}": series labels must be unique. Got ${labels.join(', ')}.`,
    );
  }
  const [yMin, yMax] = options.yBounds ?? [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
  const clip = (v: number) => Math.min(yMax, Math.max(yMin, v));
  const highlight = options.highlight ?? [];
  for (const h of highlight)
    if (!labels.includes(h))
      throw new RangeError(`bandChartSpec "${options.title}": highlight '${h}' is not a series label.`);
  const maxBands = options.maxBands ?? 2;
  const banded = new Set(highlight.length > 0 ? highlight.slice(0, maxBands) : labels.slice(0, maxBands));
  // highlighted series first in the legend, in the palette's first colours; the others muted
  const order =
    highlight.length > 0 ? [...highlight, ...labels.filter((l) => !highlight.includes(l))] : labels;
  const range = order.map((l, i) =>
    highlight.length > 0 && !highlight.includes(l) ? MUTED_COLOUR : SERIES_PALETTE[i]!,
  );
  const values: {
    series: string;
    x: number;
    mean: number;
    lo: number;
    hi: number;
    band: boolean;
    focus: boolean;
  }[] = [];
  for (const s of series) {
    for (const p of s.points) {
      if (![p.x, p.mean, p.lo, p.hi].every(Number.isFinite)) continue;
      if (options.xScale === 'log' && p.x <= 0) continue;
      values.push({
        series: s.label,
        x: p.x,
        mean: clip(p.mean),
        lo: clip(p.lo),
        hi: clip(p.hi),
        band: banded.has(s.label),
        focus: highlight.length === 0 || highlight.includes(s.label),
      });
    }
  }
  const x = {
    field: 'x',
    type: 'quantitative' as const,
    title: options.xTitle,
    scale: options.xScale === 'log' ? { type: 'log' as const } : { zero: false },
    ...(options.xInteger === true ? { axis: { format: ',d', tickMinStep: 1 } } : {}),
    // a log axis is labelled (and gridded) at the data's own x values, e.g. the eps grid, instead of
    // at every 1-9 multiple of each decade
    ...(options.xScale === 'log'
      ? { axis: { values: [...new Set(values.map((v) => v.x))].sort((a, b) => a - b), format: '~g' } }
      : {}),
  };
  const color = {
    field: 'series',
    type: 'nominal' as const,
    title: null,
    scale: { domain: order, range },
    sort: order,
  };
  // one dash pattern per series, in the same legend as the colours (same field, domain and order)
  const strokeDash = {
    field: 'series',
    type: 'nominal' as const,
    title: null,
    scale: { domain: order, range: order.map((_, i) => [...DASH_PATTERNS[i]!]) },
    sort: order,
  };
  const yScale = { zero: options.yZero ?? false };
  const band = {
    transform: [{ filter: 'datum.band' }],
    mark: { type: 'area' as const, opacity: 0.13 },
    encoding: {
      x,
      y: { field: 'lo', type: 'quantitative' as const, title: options.yTitle, scale: yScale },
      y2: { field: 'hi' },
      color,
    },
  };
  const line = {
    mark: { type: 'line' as const, point: options.points ?? false },
    encoding: {
      x,
      y: { field: 'mean', type: 'quantitative' as const, title: options.yTitle, scale: yScale },
      color,
      strokeDash,
      strokeWidth: {
        condition: { test: 'datum.focus', value: highlight.length > 0 ? 2.6 : 1.8 },
        value: 1.5,
      },
      // muted lines under the highlighted ones
      order: { field: 'focus', type: 'ordinal' as const },
    },
  };
  const withBand = labels.filter((l) => banded.has(l) && values.some((v) => v.series === l));
  const subtitle =
    withBand.length === 0
      ? undefined
      : withBand.length === labels.length
        ? (options.bandLabel ?? BAND_LABEL)
        : `${options.bandLabel ?? 'shaded: 95% CI over seeds'} of ${withBand.join(', ')}, each on its own (not of a difference); other series: means${highlight.length === 0 ? ' only' : highlight.every((h) => banded.has(h)) ? ', in grey' : ' only (muted ones in grey)'}`;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: subtitle === undefined ? options.title : { text: options.title, subtitle },
    width: options.width ?? 520,
    height: options.height ?? 300,
    data: { values },
    layer: [band, line],
    // legend symbols: short strokes with each series' colour and dash, as opaque as the lines
    // whatever the band opacity
    config: {
      legend: {
        labelLimit: 400,
        symbolType: 'stroke',
        symbolSize: 500,
        symbolOpacity: 1,
        symbolStrokeWidth: 2.5,
      },
      font: 'sans-serif',
    },
  } as TopLevelSpec;
}
