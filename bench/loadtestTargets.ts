/**
 * `npm run loadtest:targets`: the service's speed targets (issue 29, docs/performance.md) checked in
 * one run, with the same commands a reader would run by hand:
 *  - d = 20, K = 5 single events: >= 0.5x the service-noop floor (`loadtest:floor`) of the same
 *    round, p99 <= 5 ms per request;
 *  - d = 20, K = 5 batches of 100: >= 25,000 pairs/s;
 *  - d = 50, K = 20 single events: >= 3,000 pairs/s;
 *  - with `--replicas`: one PostgreSQL replica >= 0.5x SQLite's pairs/s in the same block
 *    (`loadtest:replicas --modes sqlite,pg1 --blocks <rounds>`, after the rounds; it starts a
 *    throwaway PostgreSQL server). Its own lines (one per run) come as they are printed; then a
 *    line per block gives both runs' pairs/s and CPU per pair (server, and PostgreSQL's for the
 *    replica), which the JSON result keeps too.
 *
 * Method: each round runs the floor and the three loadtest shapes one after another (each its own
 * server process on a fresh database, with its warm-up), and rounds repeat, so a burst of load from
 * elsewhere on a shared machine falls on every figure alike. For each target it reports every
 * round's figure, the best and the median, and whether the median meets the target; and, because
 * pairs/s move with what else runs on the machine, the server's main-thread CPU per pair (steady
 * under load: the server handles every request on that thread) and the load client's CPU. The
 * main thread bounds a run at 1,000,000 / (its microseconds per pair) pairs/s; that figure is
 * printed as `bound` (what an idle machine could reach if the client kept up). A line per stage on
 * stderr (also when piped); the result as JSON on stdout.
 *
 * Usage (after `npm run build`): node dist/bench/loadtestTargets.js [--rounds 3] [--duration 5]
 * [--body json|binary] (the batches' rank body; default json) [--replicas] [--json]. Exit code 0
 * whether or not targets are met (a benchmark, not a test); 1 when a run failed or answered non-2xx.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './benchArgs.js';

const args = benchArgs(import.meta.url, { body: 'json', duration: '5', rounds: '3' }, ['json', 'replicas']);

const rounds = Number(args.rounds);
const duration = Number(args.duration);
const body = args.body;
const replicas = args.replicas;
const json = args.json;
if (!Number.isSafeInteger(rounds) || rounds < 1)
  fail(`--rounds takes a positive integer. Got ${args.rounds}.`);
if (!(duration > 0)) fail(`--duration takes a positive number of seconds. Got ${args.duration}.`);
if (body !== 'json' && body !== 'binary') fail(`--body takes json or binary. Got ${body}.`);

function fail(message: string): never {
  process.stderr.write(`loadtest:targets: ${message}\n`);
  process.exit(1);
}

function log(line: string): void {
  if (!json) process.stderr.write(`loadtest:targets: ${line}\n`);
}

/** One measured run of a shape, as the child command reported it. */
interface Figure {
  readonly pairsPerSecond: number;
  readonly p99ms: number;
  /** The server's main-thread CPU per pair (us); null where the command does not report it. */
  readonly mainThreadMicrosecondsPerPair: number | null;
  /** The load client's CPU over the run (s); null where the command does not report it. */
  readonly clientCpuSeconds: number | null;
}

/** Field `key` of `o` when `o` is an object (undefined otherwise). */
function field(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null ? Reflect.get(o, key) : undefined;
}

/** A number field of a child's JSON (refused with a message when absent). */
function num(o: unknown, key: string, who: string): number {
  const v = field(o, key);
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new Error(`${who}: no number '${key}' in its result.`);
  return v;
}

/** The `results` array of a child's JSON. */
function resultsOf(out: unknown, who: string): unknown[] {
  const r = field(out, 'results');
  if (!Array.isArray(r) || r.length === 0) throw new Error(`${who}: no results in its output.`);
  return r;
}

/**
 * Runs `script` (a sibling in dist/bench) with `args`; its parsed stdout (the JSON result). With
 * `progress` (a long stage) and without this command's --json, the child's own lines (one per
 * block) go straight to stderr as they come; otherwise it runs with --json and its stderr is kept
 * for the error message.
 */
function runChild(script: string, args: readonly string[], progress = false): unknown {
  const path = fileURLToPath(new URL(`./${script}`, import.meta.url));
  const stream = progress && !json;
  const r = spawnSync(process.execPath, [path, ...args, ...(stream ? [] : ['--json'])], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', stream ? 'inherit' : 'pipe'],
  });
  if (r.status !== 0) {
    const why = stream ? 'its output is above' : r.stderr.trim().slice(-2000);
    throw new Error(`${script} ${args.join(' ')} failed (exit ${r.status}): ${why}`);
  }
  const start = r.stdout.indexOf('{');
  if (start < 0) throw new Error(`${script}: no JSON on its stdout.`);
  const parsed: unknown = JSON.parse(r.stdout.slice(start));
  return parsed;
}

/** The figure of one result object (refused when it answered non-2xx or failed events). */
function figure(r: unknown, who: string): Figure {
  if (num(r, 'non2xx', who) !== 0 || num(r, 'errors', who) !== 0) {
    throw new Error(`${who}: non-2xx answers or errors in the run; its figures do not count.`);
  }
  const failed = field(r, 'failedEvents');
  if (typeof failed === 'number' && failed !== 0) {
    throw new Error(`${who}: ${failed} failed events in batch answers.`);
  }
  const main = field(r, 'mainThreadMicrosecondsPerPair');
  const client = field(r, 'clientCpuSeconds');
  return {
    pairsPerSecond: num(r, 'pairsPerSecond', who),
    p99ms: num(r, 'p99ms', who),
    mainThreadMicrosecondsPerPair: typeof main === 'number' ? main : null,
    clientCpuSeconds: typeof client === 'number' ? client : null,
  };
}

/** A block of `loadtest:replicas`: its figure with the CPU it cost per pair (server, and PostgreSQL for a replica). */
interface ReplicaFigure extends Figure {
  readonly serverCpuMsPerPair: number;
  readonly postgresCpuMsPerPair: number;
}

function replicaFigure(r: unknown): ReplicaFigure {
  const who = 'loadtest:replicas';
  return {
    ...figure(r, who),
    serverCpuMsPerPair: num(r, 'serverCpuMsPerPair', who),
    postgresCpuMsPerPair: num(r, 'postgresCpuMsPerPair', who),
  };
}

/** The figure of the first result of `script` run with `args` (see {@link runChild}). */
function firstFigure(script: string, args: readonly string[]): Figure {
  const who = script.replace(/\.js$/, '').replace('loadtestFloor', 'loadtest:floor');
  return figure(resultsOf(runChild(script, args), who)[0], who);
}

const d = String(duration);
const shapes = [
  {
    key: 'floor',
    label: 'service-noop floor',
    run: () => firstFigure('loadtestFloor.js', ['--modes', 'service-noop', '--duration', d]),
  },
  {
    key: 'singles20',
    label: 'd = 20, K = 5, single events',
    run: () => firstFigure('loadtest.js', ['--settings', '20x5', '--batch', '1', '--duration', d]),
  },
  {
    key: 'batches100',
    label: `d = 20, K = 5, batches of 100 (${body} rank body)`,
    run: () =>
      firstFigure('loadtest.js', ['--settings', '20x5', '--batch', '100', '--body', body, '--duration', d]),
  },
  {
    key: 'singles50',
    label: 'd = 50, K = 20, single events',
    run: () => firstFigure('loadtest.js', ['--settings', '50x20', '--batch', '1', '--duration', d]),
  },
] as const;

type ShapeKey = (typeof shapes)[number]['key'];

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** One target's verdict: its figure per round, best, median, and whether the median meets it. */
interface Verdict {
  readonly target: string;
  readonly perRound: readonly number[];
  readonly best: number;
  readonly median: number;
  readonly goal: number;
  readonly met: boolean;
}

function verdict(target: string, perRound: readonly number[], goal: number, higherIsBetter = true): Verdict {
  const m = Number(median(perRound).toFixed(3)); // the mean of the middle two for an even count
  return {
    target,
    perRound,
    best: higherIsBetter ? Math.max(...perRound) : Math.min(...perRound),
    median: m,
    goal,
    met: higherIsBetter ? m >= goal : m <= goal,
  };
}

function main(): void {
  const figures = new Map<ShapeKey, Figure[]>(shapes.map((s) => [s.key, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const s of shapes) {
      log(`round ${round}/${rounds}: ${s.label}, ${duration} s (and a 2 s warm-up)`);
      const f = s.run();
      figures.get(s.key)!.push(f);
      const cpu =
        f.mainThreadMicrosecondsPerPair === null
          ? ''
          : `; server main thread ${f.mainThreadMicrosecondsPerPair} us per pair (bound ${Math.round(1e6 / f.mainThreadMicrosecondsPerPair)} pairs/s)`;
      const client = f.clientCpuSeconds === null ? '' : `, client CPU ${f.clientCpuSeconds.toFixed(1)} s`;
      log(
        `round ${round}/${rounds}: ${s.label}: ${Math.round(f.pairsPerSecond)} pairs/s, p99 ${f.p99ms} ms${cpu}${client}`,
      );
    }
  }
  const of = (k: ShapeKey) => figures.get(k)!;
  const floor = of('floor');
  const verdicts: Verdict[] = [
    verdict(
      'd = 20, K = 5 single events / service-noop floor (same round)',
      of('singles20').map((f, i) => Number((f.pairsPerSecond / floor[i]!.pairsPerSecond).toFixed(3))),
      0.5,
    ),
    verdict(
      'd = 20, K = 5 single events: p99 ms',
      of('singles20').map((f) => f.p99ms),
      5,
      false,
    ),
    verdict(
      `d = 20, K = 5 batches of 100 (${body}): pairs/s`,
      of('batches100').map((f) => Math.round(f.pairsPerSecond)),
      25_000,
    ),
    verdict(
      'd = 50, K = 20 single events: pairs/s',
      of('singles50').map((f) => Math.round(f.pairsPerSecond)),
      3_000,
    ),
  ];
  let replicaRuns: unknown = null;
  if (replicas) {
    log(`loadtest:replicas --modes sqlite,pg1 --blocks ${rounds}, ${duration} s each (starts PostgreSQL)`);
    const out = runChild(
      'loadtestReplicas.js',
      ['--modes', 'sqlite,pg1', '--blocks', String(rounds), '--duration', d],
      true,
    );
    const rs = resultsOf(out, 'loadtest:replicas');
    const sqlite = rs.filter((r) => field(r, 'mode') === 'sqlite').map(replicaFigure);
    const pg1 = rs.filter((r) => field(r, 'mode') === 'pg1').map(replicaFigure);
    if (sqlite.length !== pg1.length || sqlite.length === 0) {
      throw new Error(
        `loadtest:replicas: ${sqlite.length} SQLite and ${pg1.length} replica runs; expected one of each per block.`,
      );
    }
    pg1.forEach((p, i) => {
      const s = sqlite[i]!;
      log(
        `replicas, block ${i + 1}/${pg1.length}: SQLite ${s.pairsPerSecond.toFixed(0)} pairs/s (server ${s.serverCpuMsPerPair.toFixed(2)} CPU-ms per pair), one replica ${p.pairsPerSecond.toFixed(0)} (server ${p.serverCpuMsPerPair.toFixed(2)} + PostgreSQL ${p.postgresCpuMsPerPair.toFixed(2)}): ${(p.pairsPerSecond / s.pairsPerSecond).toFixed(3)}x`,
      );
    });
    verdicts.push(
      verdict(
        'one PostgreSQL replica / SQLite (same block)',
        pg1.map((f, i) => Number((f.pairsPerSecond / sqlite[i]!.pairsPerSecond).toFixed(3))),
        0.5,
      ),
    );
    replicaRuns = { sqlite, pg1 };
  }
  for (const v of verdicts) {
    log(
      `${v.met ? 'met' : 'NOT met'}: ${v.target}: median ${v.median}, best ${v.best} (goal ${v.goal}); per round ${v.perRound.join(', ')}`,
    );
  }
  const perShape = Object.fromEntries(
    shapes.map((s) => {
      const fs = of(s.key);
      const us = fs.map((f) => f.mainThreadMicrosecondsPerPair).filter((x): x is number => x !== null);
      return [
        s.key,
        {
          label: s.label,
          runs: fs,
          medianMainThreadMicrosecondsPerPair: us.length === 0 ? null : median(us),
        },
      ];
    }),
  );
  const out = {
    rounds,
    durationSeconds: duration,
    batchBody: body,
    node: process.version,
    verdicts,
    shapes: perShape,
    replicas: replicaRuns,
  };
  process.stdout.write(`${JSON.stringify(out, null, json ? 0 : 2)}\n`);
}

try {
  main();
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
