/**
 * `npm run loadtest`: rank + reward pairs per second and request latency of `adaprivate serve` on
 * loopback, for d = 20, K = 5 and d = 50, K = 20 (SQLite, WAL, synchronous = NORMAL by default).
 *
 * Method: the server is a child process (`adaprivate serve` on a fresh database in a temporary
 * directory); autocannon (in this process) keeps `--connections` connections busy, each sending a
 * rank (its own event id, arms drawn from a pre-generated pool) followed by the reward of that event.
 * A warm-up run precedes each measured run. Bounded by `--duration` seconds and `--amount`
 * requests per run. Reports pairs/s, per-request p50/p99 latency, non-2xx answers (must be 0), the
 * server's CPU seconds (from /proc; its main thread's apart) and the load client's own CPU seconds
 * next to the wall seconds.
 *
 * Each shape runs once per --batch size (default 1,10): 1 is the single-event routes; N > 1 sends
 * a rank/batch of N events, then one rewards/batch with their rewards; pairs/s counts events,
 * latency is per (batch) request, and every event of every batch answer must succeed (failedEvents 0).
 *
 * Options: --duration <s> (10), --connections <n> (default 8 for single events, 4 for batches),
 * --amount <requests> (400000), --batch <n,...> (1,10),
 * --policy <id> (adaprivate-ts), --samples <n> (the model's probabilitySamples: every rank then answers
 * the Monte Carlo arm probabilities; default unset: ranks answer without them), --synchronous normal|full,
 * --ids client|server (client: each rank names its event id; server: ranks name none, the server
 * makes them, and each reward is sent for the id its rank answered), --cli <path> (the server's
 * dist/src/cli/main.js; default this build's), --group-commit on|off (on), --body json|binary (json; binary: ranks as the binary rank body,
 * application/x-adaprivate-rank, and rank batches as the binary rank/batch body, docs/serving.md;
 * rewards stay JSON), --checkpoint background|auto (background), --log-candidates on|off (on:
 * the model's logCandidates setting; off stores only the chosen arm's features per decision), --settings <dxK,...> (20x5,50x20), --cpu-prof <dir> (V8 CPU profile of the server, written at its
 * exit), --json.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type PolicyId, policyInfo } from '../src/policies/index.js';
import { benchArgs } from './benchArgs.js';
import {
  armsPool,
  cpuSeconds,
  microsecondsPerPair,
  type PairRun,
  runPairs,
  threadCpuSeconds,
} from './loadClient.js';

const args = benchArgs(
  import.meta.url,
  {
    amount: '400000',
    batch: '1,10',
    body: 'json',
    checkpoint: 'background',
    cli: fileURLToPath(new URL('../src/cli/main.js', import.meta.url)),
    connections: '', // unset: 8 for single events, 4 for batches
    'cpu-prof': '',
    duration: '10',
    'group-commit': 'on',
    ids: 'client',
    'log-candidates': 'on',
    policy: 'adaprivate-ts',
    samples: '',
    settings: '20x5,50x20',
    synchronous: 'normal',
  },
  ['json'],
);
/** The server's CLI: this build's, or another build's with --cli (a before/after comparison). */
const cli = args.cli;
const KEY = 'loadtest-key-0123456789abcdefghijklm';

const duration = Number(args.duration);
const amount = Number(args.amount);
const policy = args.policy;
const samples = args.samples === '' ? null : Number(args.samples);
const synchronous = args.synchronous;
const json = args.json;
const cpuProfDir = args['cpu-prof'];
const groupCommit = args['group-commit'];
const checkpoint = args.checkpoint;
const logCandidates = args['log-candidates'];
if (logCandidates !== 'on' && logCandidates !== 'off') {
  process.stderr.write(`loadtest: --log-candidates takes on or off. Got ${logCandidates}.\n`);
  process.exit(2);
}
const body = args.body;
if (body !== 'json' && body !== 'binary') {
  process.stderr.write(`loadtest: --body takes json or binary. Got ${body}.\n`);
  process.exit(2);
}
const ids = args.ids;
if (ids !== 'client' && ids !== 'server') {
  process.stderr.write(`loadtest: --ids takes client or server. Got ${ids}.\n`);
  process.exit(2);
}
const batches = args.batch.split(',').map(Number);
for (const b of batches) {
  if (!Number.isSafeInteger(b) || b < 1 || b > 1000) {
    process.stderr.write(
      `loadtest: --batch takes integers in [1, 1000], comma-separated. Got ${args.batch}.\n`,
    );
    process.exit(2);
  }
}
/** Connections of a run: --connections when given, else 8 for single events and 4 for batches. */
function connectionsFor(batch: number): number {
  return args.connections !== '' ? Number(args.connections) : batch > 1 ? 4 : 8;
}
const settings = args.settings.split(',').map((s) => s.split('x').map(Number) as [number, number]);

interface RunResult extends PairRun {
  readonly wallSeconds: number;
  /** CPU of the whole server process: its main thread, the checkpoint worker, V8's GC threads. */
  readonly serverCpuSeconds: number;
  /** CPU of the server's main thread alone (it handles every request: at 1 s per s it is saturated). */
  readonly serverMainThreadCpuSeconds: number;
  /**
   * The main thread's CPU per pair (us): the steadier figure on a shared or throttled machine, where
   * pairs/s moves with what else runs (it counts only this server's own work).
   */
  readonly mainThreadMicrosecondsPerPair: number;
  /**
   * CPU of this process, the load client (autocannon), during the run: on two cores the client
   * and the server share the machine, so a client near 1 s per s limits the run, not the server.
   */
  readonly clientCpuSeconds: number;
}

async function run(
  url: string,
  model: string,
  pool: string[],
  seconds: number,
  pid: number,
  tag: string,
  batch: number,
) {
  const cpu0 = cpuSeconds(pid);
  const main0 = threadCpuSeconds(pid, pid);
  const client0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = await runPairs({
    url,
    apiKey: KEY,
    model,
    pool,
    connections: connectionsFor(batch),
    seconds,
    maxRequests: amount,
    tag,
    batch,
    binary: body === 'binary',
    serverIds: ids === 'server',
  });
  const wallSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const mainCpu = threadCpuSeconds(pid, pid) - main0;
  const client = process.cpuUsage(client0);
  const res: RunResult = {
    ...r,
    wallSeconds,
    serverCpuSeconds: cpuSeconds(pid) - cpu0,
    serverMainThreadCpuSeconds: mainCpu,
    mainThreadMicrosecondsPerPair: microsecondsPerPair(r, mainCpu),
    clientCpuSeconds: (client.user + client.system) / 1e6,
  };
  return res;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-load-'));
  const child = spawn(
    process.execPath,
    [
      ...(cpuProfDir === '' ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfDir]),
      cli,
      'serve',
      '--db',
      join(dir, 'load.db'),
      '--port',
      '0',
      '--json',
      '--log-level',
      'error',
      '--synchronous',
      synchronous,
      ...(groupCommit === 'off' ? ['--no-group-commit'] : []),
      '--checkpoint',
      checkpoint,
    ],
    { env: { ...process.env, ADAPRIVATE_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (l) =>
      resolve((JSON.parse(l) as { url: string }).url),
    );
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  const results = [];
  try {
    for (const [d, k] of settings) {
      const model = `load-d${d}-k${k}`;
      const res = await fetch(`${url}/v1/models/${model}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          policy,
          options: {
            dim: d,
            horizon: 100_000_000,
            ...(policyInfo(policy as PolicyId).isPrivate ? { epsilon: 1 } : {}),
          },
          ...(samples === null ? {} : { probabilitySamples: samples }),
          ...(logCandidates === 'off' ? { logCandidates: false } : {}),
        }),
      });
      if (!res.ok) throw new Error(`create ${model}: ${res.status} ${await res.text()}`);
      const pool = armsPool(d, k, 256);
      for (const batch of batches) {
        const mode =
          batch > 1
            ? `batches of ${batch}${body === 'binary' ? ' (binary rank body)' : ''}, ${connectionsFor(batch)} connections`
            : `single events${body === 'binary' ? ' (binary rank body)' : ''}, ${connectionsFor(batch)} connections`;
        if (!json) process.stderr.write(`loadtest: ${model}, ${mode}: warm-up 2 s, then ${duration} s\n`);
        await run(url, model, pool, 2, child.pid!, `w${d}b${batch}`, batch);
        const r = await run(url, model, pool, duration, child.pid!, `m${d}b${batch}`, batch);
        const status = (await (
          await fetch(`${url}/v1/models/${model}`, { headers: { authorization: `Bearer ${KEY}` } })
        ).json()) as { rounds: number; batchesReleased: number };
        results.push({
          dim: d,
          arms: k,
          connections: connectionsFor(batch),
          ...r,
          rounds: status.rounds,
          batchesReleased: status.batchesReleased,
        });
        if (!json) {
          process.stderr.write(
            `loadtest: d = ${d}, K = ${k}, ${mode}: ${r.pairsPerSecond.toFixed(0)} pairs/s, p50 ${r.p50ms} ms, p99 ${r.p99ms} ms per request, non-2xx ${r.non2xx}, errors ${r.errors}${batch > 1 ? `, failed events ${r.failedEvents}` : ''}; server CPU ${r.serverCpuSeconds.toFixed(1)} s (main thread ${r.serverMainThreadCpuSeconds.toFixed(1)} s, ${r.mainThreadMicrosecondsPerPair} us per pair), client CPU ${r.clientCpuSeconds.toFixed(1)} s over ${r.wallSeconds.toFixed(1)} s wall\n`,
          );
        }
      }
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
  const out = {
    policy,
    probabilitySamples: samples,
    synchronous,
    groupCommit,
    checkpoint,
    body,
    ids,
    cli,
    batches,
    durationSeconds: duration,
    node: process.version,
    results,
  };
  process.stdout.write(`${JSON.stringify(out, null, json ? 0 : 2)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`loadtest: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
