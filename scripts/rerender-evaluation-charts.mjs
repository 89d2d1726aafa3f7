// Re-draws the two value-by-epsilon charts of docs/evaluation.md (docs/img/evaluation/
// value-by-epsilon-softmax.svg and -uniform.svg) in the charts' current style, from the DR column
// of that document's two worked-example tables (no re-run: the chart of `evaluate --out` is drawn
// from exactly these values and intervals; the logging policy's line is its realised average, as
// the document states it). The same function as `evaluate --out` draws them (valueChartSpec).
// Usage: npm run build && node scripts/rerender-evaluation-charts.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { valueChartSpec } from '../dist/src/cli/commands/evaluateReport.js';
import * as report from '../dist/src/experiments/report/index.js';

const doc = readFileSync('docs/evaluation.md', 'utf8');
const names = {
  'AdaPrivate-TS': 'adaprivate-ts',
  'AdaPrivate-UCB': 'adaprivate-ucb',
  LinTS: 'lints',
  LinUCB: 'linucb',
};

/** The DR estimates of the first table after `marker` in the document. */
function drSettings(marker) {
  const at = doc.indexOf(marker);
  if (at < 0) throw new Error(`docs/evaluation.md: no '${marker}'`);
  const lines = doc.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('| policy |'));
  const header = lines[start].split('|').map((c) => c.trim());
  const dr = header.indexOf('DR');
  const rows = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    const cells = l.split('|').map((c) => c.trim());
    const m = /^([0-9.]+) \[([0-9.]+), ([0-9.]+)\]/.exec(cells[dr]);
    if (m === null) throw new Error(`unparsed DR cell: ${cells[dr]}`);
    const epsilon = cells[2] === 'non-private' ? null : Number(cells[2]);
    rows.push({
      policy: names[cells[1]],
      displayName: cells[1],
      epsilon,
      epsilonSpent: epsilon,
      noise: epsilon === null ? 'none' : 'seeded',
      runs: 5,
      estimates: [
        {
          estimator: 'dr',
          value: Number(m[1]),
          interval: [Number(m[2]), Number(m[3])],
          effectiveSampleSize: Number.NaN,
          relative: Number.NaN,
          relativeInterval: [Number.NaN, Number.NaN],
          betweenRunSd: 0,
        },
      ],
    });
  }
  return rows;
}

const charts = [
  {
    file: 'softmax',
    marker: '## 6. Worked example',
    logging: /realised average is ([0-9.]+) \[([0-9.]+), ([0-9.]+)\]/,
  },
  { file: 'uniform', marker: 'With uniform logging', logging: /realised ([0-9.]+)\)/ },
];
for (const c of charts) {
  const settings = drSettings(c.marker);
  const m = c.logging.exec(doc.slice(doc.indexOf(c.marker)));
  if (m === null) throw new Error(`${c.file}: no realised logging value`);
  const value = Number(m[1]);
  const logging = { value, interval: m[2] === undefined ? [value, value] : [Number(m[2]), Number(m[3])] };
  const svg = await report.renderSvg(valueChartSpec(report, settings, 'dr', logging, 0.95, 5));
  const out = `docs/img/evaluation/value-by-epsilon-${c.file}.svg`;
  writeFileSync(out, svg);
  console.log(`${out}: ${settings.length} settings, logging ${value}`);
}
