import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bandChartSpec,
  DASH_PATTERNS,
  MUTED_COLOUR,
  SERIES_PALETTE,
} from '../../../src/experiments/report/bandChartSpec.js';
import { buildHtmlReport } from '../../../src/experiments/report/htmlReport.js';
import { reportTable } from '../../../src/experiments/report/ReportTable.js';
import { renderSvg } from '../../../src/experiments/report/renderSvg.js';
import { curveSeries } from '../../../src/experiments/report/seriesFrom.js';
import type { SettingSummary } from '../../../src/experiments/types.js';

/** Checks that every element opened in `xml` is closed in order (a light well-formedness check). */
export function assertBalancedXml(xml: string): void {
  const stack: string[] = [];
  const re = /<(\/?)([A-Za-z][\w:-]*)([^>]*?)(\/?)>/g;
  for (const m of xml.matchAll(re)) {
    const [, close, name, , selfClose] = m;
    if (selfClose === '/') continue;
    if (close === '/') {
      const top = stack.pop();
      assert.equal(top, name, `closing </${name}> does not match <${top}>`);
    } else stack.push(name!);
  }
  assert.deepEqual(stack, [], `unclosed elements: ${stack.join(', ')}`);
}

const seeds = [1, 2, 3];
const stat = (mean: number) => ({
  n: 3,
  mean,
  std: 0.01,
  ci95: [mean - 0.01, mean + 0.01] as const,
  perSeed: [mean, mean, mean],
  seeds,
});
function summary(policy: string, base: number): SettingSummary {
  return {
    setting: `${policy}|eps=1|`,
    policy,
    epsilon: 1,
    params: {},
    meanReward: stat(base),
    regret: stat(100 * base),
    epsilonSpent: stat(1),
    curve: [100, 200, 300].map((round, i) => ({
      round,
      reward: { mean: base + 0.01 * i, lo: base + 0.01 * i - 0.02, hi: base + 0.01 * i + 0.02 },
      regret: { mean: 10 * (i + 1), lo: 9 * (i + 1), hi: 11 * (i + 1) },
    })),
    config: {
      env: { kind: 'synthetic', dim: 2, arms: 4, armsPerRound: 2, thetaNorm: 2, link: 'logistic' },
      protocol: 'full-information',
      policy,
      epsilon: 1,
      delta: 1e-5,
      params: {},
      horizon: 300,
      seed: 1,
      checkpointEvery: 100,
    },
  };
}

test('curveSeries takes the checkpoint means and bands', () => {
  const s = curveSeries(summary('adaprivate-ts', 0.6), 'regret', 'TS');
  assert.equal(s.label, 'TS');
  assert.deepEqual(
    s.points.map((p) => [p.x, p.mean, p.lo, p.hi]),
    [
      [100, 10, 9, 11],
      [200, 20, 18, 22],
      [300, 30, 27, 33],
    ],
  );
});

test('bandChartSpec keeps series order, drops non-finite points and refuses duplicate labels', () => {
  const spec = bandChartSpec(
    [
      { label: 'B', points: [{ x: 1, mean: 1, lo: 0, hi: 2 }] },
      {
        label: 'A',
        points: [
          { x: 0, mean: Number.NaN, lo: 0, hi: 1 },
          { x: 0.5, mean: 1, lo: 0, hi: 2 },
        ],
      },
    ],
    { title: 't', xTitle: 'x', yTitle: 'y', xScale: 'log' },
  ) as unknown as {
    data: { values: { series: string }[] };
    layer: { encoding: { color: { scale: { domain: string[] } } } }[];
  };
  assert.deepEqual(
    spec.data.values.map((v) => v.series),
    ['B', 'A'],
  );
  assert.deepEqual(spec.layer[0]!.encoding.color.scale.domain, ['B', 'A']);
  assert.throws(
    () =>
      bandChartSpec(
        [
          { label: 'A', points: [] },
          { label: 'A', points: [] },
        ],
        { title: 't', xTitle: 'x', yTitle: 'y' },
      ),
    /labels must be unique/,
  );
});

test('renderSvg produces a well-formed SVG naming every series, and the HTML report inlines it', async () => {
  const series = [
    curveSeries(summary('adaprivate-ts', 0.6), 'reward', 'AdaPrivate-TS'),
    curveSeries(summary('adaprivate-ucb', 0.5), 'reward', 'AdaPrivate-UCB'),
  ];
  const svg = await renderSvg(
    bandChartSpec(series, { title: 'Reward over time', xTitle: 'round', yTitle: 'reward' }),
  );
  assert.ok(svg.startsWith('<svg'), svg.slice(0, 80));
  assert.ok(svg.trimEnd().endsWith('</svg>'));
  assertBalancedXml(svg);
  assert.ok(svg.includes('AdaPrivate-TS'));
  assert.ok(svg.includes('AdaPrivate-UCB'));
  assert.ok(svg.includes('Reward over time'));
  // a line mark for the means and an area mark for the bands
  assert.ok(svg.includes('mark-line role-mark'), 'the SVG has a line mark');
  assert.ok(svg.includes('mark-area role-mark'), 'the SVG has an area (CI band) mark');

  const html = buildHtmlReport({
    title: 'Report',
    version: '9.9.9',
    command: 'adaprivate reproduce synthetic --tiny',
    sections: [
      {
        heading: 'Main',
        blocks: [
          { kind: 'paragraph', text: 'a < b' },
          { kind: 'table', table: reportTable({ title: 'T', columns: [{ header: 'a' }], rows: [['1']] }) },
          { kind: 'svg', svg, caption: 'reward' },
        ],
      },
    ],
    config: { horizon: 300 },
    seeds,
  });
  assert.ok(html.startsWith('<!DOCTYPE html>'));
  assert.ok(html.includes('<p>a &lt; b</p>'));
  assert.ok(html.includes('9.9.9'));
  assert.ok(html.includes('&quot;horizon&quot;: 300'));
  assert.ok(html.includes(svg.slice(0, 200)));
  assert.ok(!/<script|<link|src="http/.test(html), 'the report must be self-contained');
});

test('chart specs: 12 series get 12 distinct colours, opaque legend symbols, few bands, clipped y', async () => {
  const series = Array.from({ length: 12 }, (_, i) => ({
    label: `policy ${i + 1}`,
    points: [
      { x: 1, mean: 0.9 + i * 0.005, lo: 0.85, hi: 1.2 },
      { x: 2, mean: 0.95, lo: 0.9, hi: 1.05 },
    ],
  }));
  const spec = bandChartSpec(series, {
    title: 'twelve',
    xTitle: 'round',
    yTitle: 'reward',
    yBounds: [0, 1],
    xInteger: true,
  }) as unknown as {
    layer: { encoding: { color: { scale: { range: string[] } } } }[];
    config: { legend: { symbolOpacity: number } };
    data: { values: { hi: number; band: boolean }[] };
  };
  const range = spec.layer[1]!.encoding.color.scale.range;
  assert.equal(range.length, 12);
  assert.equal(new Set(range.map((c) => c.toLowerCase())).size, 12, `colours ${range.join(', ')}`);
  assert.equal(spec.config.legend.symbolOpacity, 1);
  assert.ok(
    spec.data.values.every((v) => v.hi <= 1),
    'no band above 1',
  );
  assert.equal(new Set(spec.data.values.filter((v) => v.band).map((v) => JSON.stringify(v))).size, 2 * 2);
  assert.throws(
    () =>
      bandChartSpec([...series, { label: 'thirteen', points: [] }], { title: 't', xTitle: 'x', yTitle: 'y' }),
    /at most 12 series/,
  );
  const svg = await renderSvg(spec as never);
  assert.ok(svg.includes('<svg'));
});

/** CIE76 distance between two '#rrggbb' colours (sRGB, D65). */
function cie76(a: string, b: string): number {
  const lab = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
    const x = f((0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047);
    const y = f(0.2126 * r + 0.7152 * g + 0.0722 * bl);
    const z = f((0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883);
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
  };
  const p = lab(a);
  const q = lab(b);
  return Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);
}

test('chart palette: every pair of the 12 colours is at least 25 apart in CIE L*a*b* (no look-alikes)', () => {
  let worst = { d: Number.POSITIVE_INFINITY, pair: '' };
  SERIES_PALETTE.forEach((a, i) => {
    for (const b of SERIES_PALETTE.slice(i + 1)) {
      const d = cie76(a, b);
      if (d < worst.d) worst = { d, pair: `${a} / ${b}` };
    }
  });
  assert.ok(worst.d >= 25, `closest pair ${worst.pair} at ${worst.d.toFixed(1)}`);
  // the check can fail: Tol's wine and purple are 14 apart
  assert.ok(cie76('#882255', '#AA3377') < 25);
});

test('chart rendering: long legend labels are not truncated, a log axis is labelled at the data, bands are named', async () => {
  const label = 'AdaPrivate-TS-Adaptive (tuned v0)';
  const pts = (m: number) => [0.1, 0.5, 1, 2, 5, 10].map((x) => ({ x, mean: m, lo: m - 0.01, hi: m + 0.01 }));
  const spec = bandChartSpec(
    [
      { label: 'AdaPrivate-TS', points: pts(0.5) },
      { label: 'AdaPrivate-UCB', points: pts(0.52) },
      { label, points: pts(0.55) },
    ],
    { title: 'Reward vs eps', xTitle: 'epsilon', yTitle: 'reward', xScale: 'log' },
  );
  const svg = await renderSvg(spec);
  assert.ok(svg.includes(`>${label}<`), 'the full legend label is drawn');
  assert.ok(!svg.includes('\u2026'), 'no label cut with an ellipsis');
  // tick labels: exactly the eps grid, not 0.2, 0.3, 0.4
  for (const t of ['0.1', '0.5', '1', '2', '5', '10']) assert.ok(svg.includes(`>${t}<`), `tick ${t}`);
  for (const t of ['0.2', '0.3', '0.4', '3', '4']) assert.ok(!svg.includes(`>${t}<`), `no tick ${t}`);
  assert.ok(
    svg.includes(
      'shaded: 95% CI over seeds of AdaPrivate-TS, AdaPrivate-UCB, each on its own (not of a difference); other series: means only',
    ),
  );
});

test('highlighted series keep their colours and bands; the others are grey; the band label says what the band is', async () => {
  const pts = (m: number) => [1, 5].map((x) => ({ x, mean: m, lo: m - 0.01, hi: m + 0.01 }));
  const spec = bandChartSpec(
    [
      { label: 'LinTS', points: pts(0.6) },
      { label: 'AdaPrivate-TS', points: pts(0.5) },
      { label: 'AdaPrivate-UCB', points: pts(0.52) },
    ],
    {
      title: 'Reward vs eps',
      xTitle: 'epsilon',
      yTitle: 'reward',
      highlight: ['AdaPrivate-TS', 'AdaPrivate-UCB'],
      bandLabel: 'shaded: 95% bootstrap interval',
    },
  ) as unknown as {
    layer: { encoding: { color: { scale: { domain: string[]; range: string[] } } } }[];
    title: { subtitle: string };
  };
  const { domain, range } = spec.layer[1]!.encoding.color.scale;
  assert.deepEqual(domain, ['AdaPrivate-TS', 'AdaPrivate-UCB', 'LinTS']);
  assert.deepEqual(range, [SERIES_PALETTE[0], SERIES_PALETTE[1], MUTED_COLOUR]);
  assert.match(spec.title.subtitle, /^shaded: 95% bootstrap interval of AdaPrivate-TS, AdaPrivate-UCB/);
  assert.throws(
    () =>
      bandChartSpec([{ label: 'a', points: pts(1) }], {
        title: 't',
        xTitle: 'x',
        yTitle: 'y',
        highlight: ['b'],
      }),
    /highlight 'b' is not a series label/,
  );
});

test('every series has a dash pattern of its own, so the grey (muted) lines can be told apart', async () => {
  // the evaluation chart drew the non-private policy and the logging policy as two identical grey lines
  const pts = (m: number) => [0.5, 1, 5].map((x) => ({ x, mean: m, lo: m - 0.01, hi: m + 0.01 }));
  const series = [
    { label: 'AdaPrivate-TS', points: pts(0.6) },
    { label: 'LinTS (non-private)', points: pts(0.62) },
    { label: 'Logging policy', points: pts(0.53) },
  ];
  const spec = bandChartSpec(series, {
    title: 'Estimated value by epsilon',
    xTitle: 'epsilon',
    yTitle: 'value',
    xScale: 'log',
    highlight: ['AdaPrivate-TS'],
  }) as unknown as {
    layer: { encoding: { strokeDash?: { scale: { domain: string[]; range: number[][] } } } }[];
  };
  const dash = spec.layer[1]!.encoding.strokeDash!.scale;
  assert.deepEqual(dash.domain, ['AdaPrivate-TS', 'LinTS (non-private)', 'Logging policy']);
  assert.deepEqual(dash.range[0], [], 'the first (highlighted) series is solid');
  assert.equal(new Set(dash.range.map((d) => d.join(','))).size, 3, 'three different patterns');
  assert.equal(new Set(DASH_PATTERNS.map((d) => d.join(','))).size, SERIES_PALETTE.length);
  // in the drawn chart: the two grey lines carry different dasharrays, and so do their legend symbols
  const svg = await renderSvg(spec as unknown as Parameters<typeof renderSvg>[0]);
  const greyDashes = [...svg.matchAll(/<path[^>]*stroke="#BBBBBB"[^>]*stroke-dasharray="([^"]+)"/g)].map(
    (m) => m[1],
  );
  assert.ok(
    new Set(greyDashes).size >= 2,
    `grey lines and legend symbols with distinct dashes: ${greyDashes.join(' | ')}`,
  );
});
