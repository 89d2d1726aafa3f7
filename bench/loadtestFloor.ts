/**
 * `npm run loadtest:floor`: the ceiling that the HTTP layer alone puts on `npm run loadtest` on this
 * machine, with the same client (autocannon, 8 connections, rank + reward-of-that-event pairs, the
 * d = 20, K = 5 rank bodies). Two servers, each a child process:
 *  - `bare`: Fastify with the two routes answering constants (no schemas, hooks or store);
 *  - `service-noop`: `createServer` as `serve` runs it (auth, schemas, metrics, error handling,
 *    SQLite opened) with rank and reward answered by constants instead of the model.
 * A mode's pairs/s is what no model work could exceed here; the difference to `npm run loadtest`
 * is the model's and the store's share. Options: --duration <s> (6), --connections <n> (8), --modes
 * bare,service-noop (both), --json.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './benchArgs.js';
import { armsPool, microsecondsPerPair, runPairs, threadCpuSeconds } from './loadClient.js';

const KEY = 'loadtest-key-0123456789abcdefghijklm';
const MODES = ['bare', 'service-noop'] as const;
type Mode = (typeof MODES)[number];

/** The server side (run as `node loadtestFloor.js --child <mode> <dir>`): prints its URL. */
async function child(mode: Mode, dir: string): Promise<void> {
  let url: string;
  if (mode === 'bare') {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ logger: false });
    app.post<{ Body: { eventId: string } }>('/v1/models/:name/rank', async (req) => ({
      eventId: req.body.eventId,
      chosen: 0,
    }));
    app.post<{ Body: { eventId: string } }>('/v1/models/:name/rewards', async (req) => ({
      eventId: req.body.eventId,
      status: 'recorded',
    }));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  } else {
    const { ModelRuntime } = await import('../src/service/ModelRuntime.js');
    const { createServer } = await import('../src/service/index.js');
    ModelRuntime.prototype.rank = async (req) => ({
      eventId: req.eventId ?? 'e',
      chosen: 0,
      chosenId: req.arms[0]!.id,
      modelVersion: 0,
    });
    ModelRuntime.prototype.reward = async (eventId) => ({
      eventId,
      status: 'recorded',
      released: false,
      modelVersion: 0,
    });
    const s = await createServer({ db: join(dir, 'floor.db'), apiKeys: [KEY], logger: false });
    url = await s.listen({ port: 0 });
    const r = await fetch(`${url}/v1/models/m`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ policy: 'adaprivate-ts', options: { dim: 20, horizon: 1e8, epsilon: 1 } }),
    });
    if (!r.ok) throw new Error(`create model: ${r.status}`);
  }
  process.stdout.write(`${url}\n`);
}

async function main(): Promise<void> {
  const args = benchArgs(import.meta.url, { connections: '8', duration: '6', modes: MODES.join(',') }, [
    'json',
  ]);
  const seconds = Number(args.duration);
  const connections = Number(args.connections);
  const json = args.json;
  const modes: Mode[] = [];
  for (const m of args.modes.split(',')) {
    const mode = MODES.find((x) => x === m);
    if (mode === undefined) {
      throw new Error(`--modes takes ${MODES.join(' and/or ')}, comma-separated. Got ${m}.`);
    }
    modes.push(mode);
  }
  const pool = armsPool(20, 5, 256);
  const results = [];
  for (const mode of modes) {
    const dir = mkdtempSync(join(tmpdir(), 'adaprivate-floor-'));
    const srv = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: srv.stdout! }).once('line', resolve);
        srv.once('exit', (code) => reject(new Error(`${mode} server exited (${code})`)));
      });
      const base = { url, apiKey: KEY, model: 'm', pool, connections, maxRequests: 10_000_000 };
      if (!json) process.stderr.write(`loadtest:floor: ${mode}: warm-up 2 s, then ${seconds} s\n`);
      await runPairs({ ...base, seconds: 2, tag: 'w' });
      const cpu0 = threadCpuSeconds(srv.pid!, srv.pid!);
      const r = await runPairs({ ...base, seconds, tag: 'm' });
      const mainThread = threadCpuSeconds(srv.pid!, srv.pid!) - cpu0;
      const perPair = microsecondsPerPair(r, mainThread);
      results.push({
        mode,
        ...r,
        serverMainThreadCpuSeconds: mainThread,
        mainThreadMicrosecondsPerPair: perPair,
        seconds,
      });
      if (!json) {
        process.stderr.write(
          `loadtest:floor: ${mode}: ${r.pairsPerSecond.toFixed(0)} pairs/s, p50 ${r.p50ms} ms, p99 ${r.p99ms} ms, non-2xx ${r.non2xx}; server main thread ${mainThread.toFixed(1)} s CPU (${perPair} us per pair) over ${seconds} s\n`,
        );
      }
    } finally {
      srv.kill('SIGTERM');
      await new Promise((r) => (srv.exitCode !== null ? r(null) : srv.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    }
  }
  process.stdout.write(
    `${JSON.stringify({ connections, node: process.version, results }, null, json ? 0 : 2)}\n`,
  );
}

const childAt = process.argv.indexOf('--child');
(childAt >= 0
  ? child(process.argv[childAt + 1] as Mode, process.argv[childAt + 2] ?? tmpdir())
  : main()
).catch((err: unknown) => {
  process.stderr.write(`loadtest:floor: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
