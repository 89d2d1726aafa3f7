// Policy throughput table for docs/performance.md: every policy at d = 20, 50, 100 (K = 5), full
// select + update loop on a pre-generated stream, `--repeat` runs (default 3) per policy made
// round-robin; each block of `--block` rounds (default 1,024) is timed by its fastest run.
// Usage (after `npm run build`): node dist/bench/policies.bench.js [--dims 20,50,100] [--repeat 3] [--policies a,b] [--horizon T] [--block B]
// On a VM whose CPU is throttled in bursts, use more repeats (e.g. --repeat 9): a block needs one
// unthrottled run, so at d = 100 also shorter blocks (e.g. --block 64, a few ms per block).
// Nothing else should run on the machine meanwhile.
import { benchPolicy } from '../src/cli/commands/bench.js';
import { type PolicyId, policyIds, policyInfo } from '../src/policies/index.js';
import { benchArgs } from './benchArgs.js';

// --policies and --horizon unset: every policy, the horizon by d (below)
const args = benchArgs(import.meta.url, {
  block: '1024',
  dims: '20,50,100',
  horizon: '',
  policies: '',
  repeat: '3',
});

const dims = args.dims.split(',').map(Number);
const repeat = Number(args.repeat);
const chosen = (args.policies !== '' ? args.policies.split(',') : [...policyIds]) as PolicyId[];
const blockRounds = Number(args.block);
/** Horizon per dimension: long enough for ~1 s per run at the target rates. */
const horizonFor = (d: number): number =>
  args.horizon !== '' ? Number(args.horizon) : d <= 20 ? 200_000 : d <= 50 ? 60_000 : 20_000;

const rates = new Map<string, number>();
const results: unknown[] = [];
for (const d of dims) {
  // Round-robin over the policies, one run each per pass, so that a long busy or throttled spell
  // of the machine hits every policy instead of all the runs of one; each block of a
  // policy is then timed by its fastest run (as `adaprivate bench --repeat` does within one call).
  const blocks = new Map<PolicyId, number[]>();
  const last = new Map<PolicyId, ReturnType<typeof benchPolicy>>();
  for (let rep = 0; rep < repeat; rep++) {
    for (const id of chosen) {
      const r = benchPolicy({
        policy: id,
        dim: d,
        arms: 5,
        horizon: horizonFor(d),
        seed: 1,
        epsilon: 1,
        repeat: 1,
        keepBlocks: true,
        blockRounds,
      });
      const prev = blocks.get(id);
      const cur = r.blockSeconds!;
      blocks.set(id, prev === undefined ? [...cur] : prev.map((v, i) => Math.min(v, cur[i]!)));
      last.set(id, r);
    }
  }
  for (const id of chosen) {
    const seconds = blocks.get(id)!.reduce((a, b) => a + b, 0);
    const rate = Math.round(horizonFor(d) / seconds);
    rates.set(`${id}@${d}`, rate);
    const { blockSeconds: _omit, ...r } = last.get(id)!;
    results.push({ ...r, repeat, seconds, roundsPerSecond: rate });
    process.stderr.write(`${id} d=${d}: ${rate} rounds/s\n`);
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
