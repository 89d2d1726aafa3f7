// Re-draws the over-time charts of docs/REPRODUCTION.md (docs/img/reproduction/reward-over-time.svg
// and regret-over-time.svg) in the charts' current style. Their curves are not in the committed
// document, so this runs the cells they are drawn from: the main study's cells at eps = 1 at full
// scale (12 seeds, T = 10,000, every method row at its defaults, seeded: the same numbers as the
// full run's eps = 1 cells), then draws them with the generator's own function (overTimeCharts).
// About 160 cells, ~20 s CPU. Usage: npm run build && nice -n 10 node scripts/rerender-reproduction-curves.mjs [--workers N]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSvg } from '../dist/src/experiments/report/renderSvg.js';
import { methodRows } from '../dist/src/experiments/reproduce/syntheticAnalysis.js';
import { overTimeCharts } from '../dist/src/experiments/reproduce/syntheticCharts.js';
import { syntheticPlan } from '../dist/src/experiments/reproduce/syntheticPlan.js';
import { syntheticScale } from '../dist/src/experiments/reproduce/syntheticScale.js';
import { runExperiment } from '../dist/src/experiments/runExperiment.js';
import { summarise } from '../dist/src/experiments/summarise.js';
import { validateExperimentConfig } from '../dist/src/experiments/validateExperimentConfig.js';

const eps = 1;
const w = process.argv.indexOf('--workers');
const workers = w > 0 ? Number(process.argv[w + 1]) : 2;
const main = syntheticPlan(syntheticScale('full')).main;
const config = validateExperimentConfig({ ...main, epsilons: [eps] });
const t0 = performance.now();
const c0 = process.cpuUsage();
const result = await runExperiment(config, { workers });
const cpu = process.cpuUsage(c0);
const ss = summarise(result.cells);
const same = (a, b) =>
  Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);
const methods = methodRows().map((r) => {
  const s = ss.find(
    (x) => x.policy === r.policy && (x.epsilon === eps || x.epsilon === null) && same(x.params, r.params),
  );
  if (s === undefined) throw new Error(`no cells for ${r.label}`);
  return { label: r.label, summary: s };
});
for (const ch of overTimeCharts(eps, methods)) {
  const file = join('docs', 'img', 'reproduction', `${ch.name}.svg`);
  writeFileSync(file, await renderSvg(ch.spec));
  console.log(file);
}
const ts = methods.find((m) => m.label === 'AdaPrivate-TS').summary.meanReward;
console.log(
  `${result.cells.length} cells, ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU; AdaPrivate-TS mean reward at eps = ${eps}: ${ts.mean.toFixed(4)} (main table: 0.572)`,
);
