// Re-draws the real-data CTR-over-time charts (docs/img/reproduction/movielens- and
// jester-ctr-over-time-eps1.svg) in the charts' current style (AdaPrivate-TS and -UCB highlighted,
// the others muted). Their curves are not in the committed documents, so this runs the cells they
// are drawn from: the main study's eps = 1 cells of the four charted policies, with the settings of
// `adaprivate reproduce movielens|jester` (rank-50 biased features, K = 5, 200,000 / 150,000 replay
// steps by default, seeds 1-5, MovieLens warm-started; seeded: the same numbers as those runs' eps = 1
// cells; the committed Jester document was made with --horizon 30000: pass --jester-horizon 30000),
// then draws them with the reproduction's own function (realDataCurveChart).
// Needs the data (not a test). About 40 cells, ~2-3 CPU-s each.
// Usage: npm run build && nice -n 10 node scripts/rerender-realdata-curves.mjs --movielens DIR/ratings.csv --jester FILE.csv [--movielens-horizon N] [--jester-horizon N] [--workers N]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareFeaturesFile } from '../dist/src/data/index.js';
import { realDataBaseConfig } from '../dist/src/experiments/reproduce/realData/realDataBaseConfig.js';
import {
  REAL_DATA_CURVE_POLICIES,
  realDataCurveChart,
} from '../dist/src/experiments/reproduce/realData/realDataCurveChart.js';
import { runExperiment } from '../dist/src/experiments/runExperiment.js';
import { summarise } from '../dist/src/experiments/summarise.js';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const workers = Number(arg('--workers') ?? 2);
const datasets = [
  {
    dataset: 'movielens',
    source: arg('--movielens'),
    format: 'movielens-csv',
    horizon: 200_000,
    warmStart: true,
  },
  { dataset: 'jester', source: arg('--jester'), format: 'jester-1', horizon: 150_000, warmStart: false },
].filter((d) => d.source !== undefined);
if (datasets.length === 0) {
  console.error(
    'usage: node scripts/rerender-realdata-curves.mjs --movielens RATINGS.csv --jester JESTER.csv',
  );
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'adaprivate-curves-'));
for (const d of datasets) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const featuresFile = join(dir, `${d.dataset}-features.bin`);
  await prepareFeaturesFile({
    source: d.source,
    format: d.format,
    out: featuresFile,
    params: { rank: 50, construction: 'biased' },
  });
  const result = await runExperiment(
    {
      ...realDataBaseConfig(featuresFile, d.horizon, [1, 2, 3, 4, 5], d.warmStart),
      name: `${d.dataset}-all-policies`,
      policies: REAL_DATA_CURVE_POLICIES.map((policy) => ({ policy, params: {} })),
      epsilons: [1],
    },
    { workers },
  );
  const cpu = process.cpuUsage(c0);
  const summaries = summarise(result.cells);
  const svg = await realDataCurveChart(d.dataset, summaries);
  if (svg === null) throw new Error(`${d.dataset}: no curve`);
  const file = join('docs', 'img', 'reproduction', `${d.dataset}-ctr-over-time-eps1.svg`);
  writeFileSync(file, svg);
  const means = summaries.map((s) => `${s.policy} ${s.meanReward.mean.toFixed(4)}`).join(', ');
  console.log(
    `${file}: ${result.cells.length} cells, ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (main thread); mean CTR ${means}`,
  );
}
