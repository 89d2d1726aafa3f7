/**
 * `npm run loadtest`: rank + reward pairs per second and request latency of `adaprivate serve` on
 * loopback, for d = 20, K = 5 and d = 50, K = 20 (SQLite, WAL, synchronous = NORMAL by default).
 *
 * Method: the server is a child process (`adaprivate serve` on a fresh database in a temporary
 * directory); autocannon (in this process) keeps `--connections` connections busy, each sending a
 * rank (its own event id, arms drawn from a pre-generated pool) followed by the reward of that event.
 * A warm-up run precedes each measured run. Bounded by `--duration` seconds and `--amount`
 * requests per run. Reports pairs/s, per-request p50/p99 latency, non-2xx answers (must be 0), and
 * the server's CPU seconds (from /proc) next to the wall seconds.
 *
 * Options: --duration <s> (10), --connections <n> (8), --amount <requests> (400000),
 * --policy <id> (adaprivate-ts), --samples <n> (probabilitySamples, 200), --synchronous normal|full,
 * --group-commit on|off (on), --settings <dxK,...> (20x5,50x20), --cpu-prof <dir> (V8 CPU profile of the server, written at its
 * exit), --json.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { type PolicyId, policyInfo } from '../src/policies/index.js';
import { createRng } from '../src/random/index.js';

const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const KEY = 'loadtest-key-0123456789abcdef';

function flag(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : def;
}

const duration = Number(flag('duration', '10'));
const connections = Number(flag('connections', '8'));
const amount = Number(flag('amount', '400000'));
const policy = flag('policy', 'adaprivate-ts');
const samples = Number(flag('samples', '200'));
const synchronous = flag('synchronous', 'normal');
const json = process.argv.includes('--json');
const cpuProfDir = flag('cpu-prof', '');
const groupCommit = flag('group-commit', 'on');
const settings = flag('settings', '20x5,50x20')
  .split(',')
  .map((s) => s.split('x').map(Number) as [number, number]);

/** utime + stime of a process in seconds (Linux /proc). */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / 100;
}

function armsPool(d: number, k: number, n: number): string[] {
  const rng = createRng(1, 'loadtest');
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const arms = [];
    for (let a = 0; a < k; a++) {
      const x = Array.from({ length: d }, () => rng.normal());
      const norm = Math.hypot(...x);
      arms.push({ id: `arm${a}`, features: x.map((v) => Number((v / norm).toFixed(6))) });
    }
    out.push(JSON.stringify(arms));
  }
  return out;
}

interface RunResult {
  readonly pairsPerSecond: number;
  readonly requests: number;
  readonly p50ms: number;
  readonly p99ms: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly wallSeconds: number;
  readonly serverCpuSeconds: number;
}

async function run(url: string, model: string, pool: string[], seconds: number, pid: number, tag: string) {
  let counter = 0;
  const cpu0 = cpuSeconds(pid);
  const t0 = process.hrtime.bigint();
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    maxOverallRequests: amount, // with `amount`, autocannon ignores `duration`: this bounds both
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: `/v1/models/${model}/rank`,
        setupRequest: (req: autocannon.Request, context: object) => {
          const ctx = context as { eventId?: string };
          const n = counter++;
          ctx.eventId = `${tag}-${n}`;
          req.body = `{"eventId":"${tag}-${n}","arms":${pool[n % pool.length]}}`;
          return req;
        },
      },
      {
        method: 'POST',
        path: `/v1/models/${model}/rewards`,
        setupRequest: (req: autocannon.Request, context: object) => {
          const ctx = context as { eventId?: string };
          const n = Number(String(ctx.eventId).split('-').pop());
          req.body = `{"eventId":"${String(ctx.eventId)}","reward":${n % 3 === 0 ? 1 : 0}}`;
          return req;
        },
      },
    ],
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = cpuSeconds(pid) - cpu0;
  const res: RunResult = {
    pairsPerSecond: r.requests.total / 2 / r.duration,
    requests: r.requests.total,
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    wallSeconds: wall,
    serverCpuSeconds: cpu,
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
          probabilitySamples: samples,
        }),
      });
      if (!res.ok) throw new Error(`create ${model}: ${res.status} ${await res.text()}`);
      const pool = armsPool(d, k, 256);
      if (!json) process.stderr.write(`loadtest: ${model}: warm-up 2 s, then ${duration} s\n`);
      await run(url, model, pool, 2, child.pid!, `w${d}`);
      const r = await run(url, model, pool, duration, child.pid!, `m${d}`);
      const status = (await (
        await fetch(`${url}/v1/models/${model}`, { headers: { authorization: `Bearer ${KEY}` } })
      ).json()) as { rounds: number; batchesReleased: number };
      results.push({ dim: d, arms: k, ...r, rounds: status.rounds, batchesReleased: status.batchesReleased });
      if (!json) {
        process.stderr.write(
          `loadtest: d = ${d}, K = ${k}: ${r.pairsPerSecond.toFixed(0)} pairs/s, p50 ${r.p50ms} ms, p99 ${r.p99ms} ms per request, non-2xx ${r.non2xx}, errors ${r.errors}; server CPU ${r.serverCpuSeconds.toFixed(1)} s over ${r.wallSeconds.toFixed(1)} s wall\n`,
        );
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
    connections,
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
