// Re-draws the real-data CTR-over-time charts (docs/img/reproduction/movielens- and
// jester-ctr-over-time-eps1.svg) in the charts' current style (AdaPrivate-TS and -UCB highlighted,
// the others muted) without re-running a whole study. Their curves are not in the committed
// documents, so this runs the cells they are drawn from: the main study's eps = 1 cells of the four
// charted policies, with the settings of `adaprivate reproduce movielens|jester` (realDataBaseConfig:
// rank-50 biased features, K = 5). The replay length, the seeds and the warm or cold start are read
// from the committed document (docs/REPRODUCTION-<dataset>.md: "N logged steps per run, seeds ...",
// "warm start" / "cold start"), so the chart is drawn from the same cells as that document's table
// (seeded: the same numbers); --<dataset>-horizon N overrides the length. Then it draws them with the
// reproduction's own function (realDataCurveChart) and prints the mean CTR of each policy, to compare
// with the document's eps = 1 column.
// Needs the data (not a test). About 20 cells per dataset, ~1-3 CPU-s each.
// Usage: npm run build && nice -n 10 node scripts/rerender-realdata-curves.mjs --movielens DIR/ratings.csv --jester FILE.csv [--movielens-horizon N] [--jester-horizon N] [--workers N]
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const DATASETS = [
  { dataset: 'movielens', format: 'movielens-csv' },
  { dataset: 'jester', format: 'jester-1' },
];

/** The committed document of a dataset's study (the run settings are read from it). */
export function readCommittedDocument(dataset) {
  return readFileSync(join('docs', `REPRODUCTION-${dataset}.md`), 'utf8');
}

/**
 * The runs to make from the command line `argv` (process.argv.slice(2)): one per dataset given
 * (`--movielens FILE`, `--jester FILE`), with the replay length, seeds and warm start of its committed
 * document (`readDocument(dataset)`), the length overridden by `--<dataset>-horizon N`. Throws on a
 * malformed option or a document without its run settings.
 */
export function curvePlan(argv, readDocument = readCommittedDocument) {
  const value = (name) => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value.`);
    return v;
  };
  const positive = (name) => {
    const v = value(name);
    if (v === undefined) return undefined;
    if (!/^[1-9][0-9]*$/.test(v)) throw new Error(`${name} must be a positive integer. Got ${v}.`);
    return Number(v);
  };
  const workers = positive('--workers') ?? 2;
  const runs = [];
  for (const d of DATASETS) {
    const source = value(`--${d.dataset}`);
    if (source === undefined) continue;
    const doc = readDocument(d.dataset);
    const m = /(\d+) logged steps per run, seeds ([\d, ]+?), delta/.exec(doc);
    if (m === null)
      throw new Error(`docs/REPRODUCTION-${d.dataset}.md does not say its logged steps per run and seeds.`);
    const warm = /\bwarm start \(prior mean/.test(doc);
    const cold = /\bcold start \(theta_0 = 0\)/.test(doc);
    if (warm === cold)
      throw new Error(
        `docs/REPRODUCTION-${d.dataset}.md does not say whether its run is warm- or cold-started.`,
      );
    runs.push({
      ...d,
      source,
      horizon: positive(`--${d.dataset}-horizon`) ?? Number(m[1]),
      seeds: m[2].split(',').map((s) => Number(s.trim())),
      warmStart: warm,
    });
  }
  return { workers, runs };
}

async function main() {
  const { prepareFeaturesFile } = await import('../dist/src/data/index.js');
  const { realDataBaseConfig } = await import(
    '../dist/src/experiments/reproduce/realData/realDataBaseConfig.js'
  );
  const { REAL_DATA_CURVE_POLICIES, realDataCurveChart } = await import(
    '../dist/src/experiments/reproduce/realData/realDataCurveChart.js'
  );
  const { runExperiment } = await import('../dist/src/experiments/runExperiment.js');
  const { summarise } = await import('../dist/src/experiments/summarise.js');
  const { workers, runs } = curvePlan(process.argv.slice(2));
  if (runs.length === 0) {
    console.error(
      'usage: node scripts/rerender-realdata-curves.mjs --movielens RATINGS.csv --jester JESTER.csv [--movielens-horizon N] [--jester-horizon N] [--workers N]',
    );
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-curves-'));
  for (const d of runs) {
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
        ...realDataBaseConfig(featuresFile, d.horizon, d.seeds, d.warmStart),
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
      `${file}: ${d.horizon} logged steps, seeds ${d.seeds.join(', ')}, ${result.cells.length} cells, ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (the process, worker threads included); mean CTR ${means}`,
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
