// Policy throughput table for docs/performance.md: every policy at d = 20, 50, 100 (K = 5), full
// select + update loop on a pre-generated stream, best of `--repeat` runs (default 3).
// Usage (after `npm run build`): node dist/bench/policies.bench.js [--dims 20,50,100] [--repeat 3] [--policies a,b] [--horizon T]
// On a VM whose CPU is throttled in bursts, use short runs and many repeats (e.g. --horizon 20000 --repeat 15):
// the best run is the one that was not throttled.
import { benchPolicy } from '../src/cli/commands/bench.js';
import { type PolicyId, policyIds, policyInfo } from '../src/policies/index.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const dims = (arg('--dims') ?? '20,50,100').split(',').map(Number);
const repeat = Number(arg('--repeat') ?? 3);
const chosen = (arg('--policies')?.split(',') ?? [...policyIds]) as PolicyId[];
/** Horizon per dimension: long enough for ~1 s per run at the target rates. */
const fixedHorizon = arg('--horizon');
const horizonFor = (d: number): number =>
  fixedHorizon !== undefined ? Number(fixedHorizon) : d <= 20 ? 200_000 : d <= 50 ? 60_000 : 20_000;

const rates = new Map<string, number>();
const results: unknown[] = [];
for (const d of dims) {
  for (const id of chosen) {
    const r = benchPolicy({
      policy: id,
      dim: d,
      arms: 5,
      horizon: horizonFor(d),
      seed: 1,
      epsilon: 1,
      repeat,
    });
    rates.set(`${id}@${d}`, r.roundsPerSecond);
    results.push(r);
    process.stderr.write(`${id} d=${d}: ${r.roundsPerSecond} rounds/s\n`);
  }
}
const fmt = (v: number) => v.toLocaleString('en-US');
const lines = [
  `| policy | ${dims.map((d) => `d = ${d}`).join(' | ')} | ${dims.map((d) => `ratio to TS, d = ${d}`).join(' | ')} |`,
  `|---|${dims.map(() => '---:').join('|')}|${dims.map(() => '---:').join('|')}|`,
];
for (const id of chosen) {
  const row = dims.map((d) => fmt(rates.get(`${id}@${d}`)!));
  const ratio = dims.map((d) => {
    const ts = rates.get(`adaprivate-ts@${d}`);
    return ts === undefined ? 'n/a' : (ts / rates.get(`${id}@${d}`)!).toFixed(2);
  });
  lines.push(`| ${policyInfo(id).displayName} | ${row.join(' | ')} | ${ratio.join(' | ')} |`);
}
process.stdout.write(`${lines.join('\n')}\n\n`);
process.stdout.write(`${JSON.stringify(results)}\n`);
