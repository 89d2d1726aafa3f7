/**
 * Benchmark harness: `npm run bench -- [--json] [--filter NAME]... [--time MS] [--list]`.
 *
 * Runs every case of every suite in bench/suites.ts whose `suite/case` name contains one of the
 * filters (all when none is given), timing each with tinybench (warm-up, then samples for `--time`
 * milliseconds per case, default 500), reporting the MEDIAN and mean time per operation in
 * nanoseconds (a call of a case's `fn` performs `opsPerCall` operations). After timing, each case's
 * `check` runs; a failing check fails the whole run (exit 1).
 *
 * The machine load (os.loadavg) is reported too: figures taken on a shared, loaded machine are
 * upper bounds, and comparisons should be made within one run.
 */
import { cpus, loadavg } from 'node:os';
import { Bench } from 'tinybench';
import { suites } from './suites.js';

interface Row {
  suite: string;
  case: string;
  group: string | null;
  nsPerOpMedian: number;
  nsPerOpMean: number;
  rmePercent: number;
  samples: number;
  /** ratio of this case's median to the fastest median in its group */
  vsBestInGroup: number | null;
}

function parseArgs(argv: readonly string[]): {
  json: boolean;
  filters: string[];
  time: number;
  list: boolean;
} {
  const out = { json: false, filters: [] as string[], time: 500, list: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') out.json = true;
    else if (a === '--list') out.list = true;
    else if (a === '--filter') {
      const v = argv[++i];
      if (v === undefined) throw new Error('bench: --filter needs a NAME (substring of suite/case).');
      out.filters.push(v);
    } else if (a === '--time') {
      const v = Number(argv[++i]);
      if (!(v > 0 && Number.isFinite(v)))
        throw new Error(`bench: --time must be a positive number of ms. Got ${argv[i]}.`);
      out.time = v;
    } else if (a === '--help' || a === '-h') {
      console.log('usage: npm run bench -- [--json] [--filter NAME]... [--time MS] [--list]');
      process.exit(0);
    } else throw new Error(`bench: unknown argument ${a}. Use --help.`);
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const matches = (id: string): boolean =>
    args.filters.length === 0 || args.filters.some((f) => id.includes(f));
  const rows: Row[] = [];
  const failures: string[] = [];
  const loadStart = loadavg();
  for (const suite of suites) {
    const cases = suite.cases().filter((c) => matches(`${suite.name}/${c.name}`));
    if (cases.length === 0) continue;
    if (args.list) {
      for (const c of cases) console.log(`${suite.name}/${c.name}`);
      continue;
    }
    if (!args.json) console.error(`# ${suite.name}: ${suite.description}`);
    for (const c of cases) {
      const bench = new Bench({ time: args.time, warmupTime: Math.min(200, args.time), iterations: 10 });
      bench.add(c.name, c.fn, { async: false });
      bench.runSync();
      const task = bench.tasks[0];
      const r = task?.result;
      if (r === undefined || !('latency' in r)) {
        failures.push(`${suite.name}/${c.name}: did not complete (${r?.state ?? 'no result'})`);
        continue;
      }
      try {
        c.check?.();
      } catch (e) {
        failures.push(`${suite.name}/${c.name}: check failed: ${(e as Error).message}`);
      }
      const row: Row = {
        suite: suite.name,
        case: c.name,
        group: c.group ?? null,
        nsPerOpMedian: (r.latency.p50 * 1e6) / c.opsPerCall,
        nsPerOpMean: (r.latency.mean * 1e6) / c.opsPerCall,
        rmePercent: r.latency.rme,
        samples: r.latency.samplesCount,
        vsBestInGroup: null,
      };
      rows.push(row);
      if (!args.json) {
        console.error(
          `  ${c.name.padEnd(48)} ${row.nsPerOpMedian.toPrecision(4).padStart(10)} ns/op (median)  mean ${row.nsPerOpMean.toPrecision(4)}  n=${row.samples}`,
        );
      }
    }
  }
  if (args.list) return;
  const best = new Map<string, number>();
  for (const r of rows) {
    if (r.group === null) continue;
    const k = `${r.suite}/${r.group}`;
    best.set(k, Math.min(best.get(k) ?? Number.POSITIVE_INFINITY, r.nsPerOpMedian));
  }
  for (const r of rows) {
    if (r.group !== null) r.vsBestInGroup = r.nsPerOpMedian / best.get(`${r.suite}/${r.group}`)!;
  }
  const machine = {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cpus: cpus().length,
    loadavgStart: loadStart,
    loadavgEnd: loadavg(),
    date: new Date().toISOString(),
  };
  if (args.json) {
    console.log(JSON.stringify({ machine, results: rows, failures }, null, 2));
  } else {
    console.log(
      `node ${machine.node}, ${machine.cpus} x ${machine.cpu}, load ${loadStart.map((x) => x.toFixed(1)).join(' ')}`,
    );
    console.log('suite\tcase\tns/op median\tns/op mean\tvs best in group');
    for (const r of rows) {
      const vs = r.vsBestInGroup === null ? '' : r.vsBestInGroup.toFixed(2);
      console.log(
        `${r.suite}\t${r.case}\t${r.nsPerOpMedian.toPrecision(4)}\t${r.nsPerOpMean.toPrecision(4)}\t${vs}`,
      );
    }
    for (const f of failures) console.error(`FAILED ${f}`);
  }
  if (failures.length > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error((e as Error).message);
  process.exitCode = 2;
});
