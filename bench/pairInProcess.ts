/**
 * The CPU cost of a rank + reward pair in the service without sockets (`app.inject`): for when the
 * machine is too loaded for `npm run loadtest` to mean anything (its wall-clock figures then
 * measure the neighbours). 8 pairs in flight on one model, a warm-up of a fifth of the pairs, then
 * the process CPU time (user + system) per pair. Mode `noop` answers rank and reward with constants
 * (as `loadtest:floor`'s service-noop); `model` runs the real model and SQLite store. Inject's own
 * cost per request is far above a socket's, so compare modes and builds within one run, and prefer
 * batches (that cost is shared by the batch).
 *
 * Usage (after `npm run build`): node dist/bench/pairInProcess.js [--mode model|noop] [--dim 20]
 * [--arms 5] [--batch 1] [--pairs 1500] [--samples <n>: the model's probabilitySamples; default unset]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RankRequest, RankResponse, RewardResponse } from '../src/service/contract.js';
import { createServer } from '../src/service/index.js';
import { ModelRuntime } from '../src/service/ModelRuntime.js';
import { benchArgs } from './benchArgs.js';
import { armsPool } from './loadClient.js';

const args = benchArgs(import.meta.url, {
  arms: '5',
  batch: '1',
  dim: '20',
  mode: 'model',
  pairs: '1500',
  samples: '',
});

const mode = args.mode;
const d = Number(args.dim);
const k = Number(args.arms);
const batch = Number(args.batch);
const total = Number(args.pairs);
const samples = args.samples;
const KEY = 'loadtest-key-0123456789abcdefghijklm';

if (mode === 'noop') {
  ModelRuntime.prototype.rank = async (req: RankRequest): Promise<RankResponse> => ({
    eventId: req.eventId ?? 'e',
    chosen: 0,
    chosenId: req.arms[0]!.id,
    modelVersion: 0,
  });
  ModelRuntime.prototype.reward = async (eventId: string): Promise<RewardResponse> => ({
    eventId,
    status: 'recorded',
    released: false,
    modelVersion: 0,
  });
}
const dir = mkdtempSync(join(tmpdir(), 'adaprivate-pair-'));
const server = await createServer({ db: join(dir, 'pair.db'), apiKeys: [KEY], logger: false });
const app = server.app;
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const created = await app.inject({
  method: 'PUT',
  url: '/v1/models/m',
  headers,
  payload: JSON.stringify({
    policy: 'adaprivate-ts',
    options: { dim: d, horizon: 1e8, epsilon: 1 },
    ...(samples === '' ? {} : { probabilitySamples: Number(samples) }),
  }),
});
if (created.statusCode >= 300) throw new Error(created.body);
const pool = armsPool(d, k, 256);
let pairs = 0;

async function post(url: string, payload: string): Promise<void> {
  const r = await app.inject({ method: 'POST', url, headers, payload });
  if (r.statusCode !== 200 || r.body.includes('"ok":false'))
    throw new Error(`${url}: ${r.body.slice(0, 300)}`);
}

async function worker(id: number, count: number, tag: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const ev = Array.from({ length: batch }, (_, b) => `${tag}${id}-${i}-${b}`);
    const arms = pool[(i * 7 + id) % pool.length]!;
    if (batch === 1) {
      await post('/v1/models/m/rank', `{"eventId":"${ev[0]}","arms":${arms}}`);
      await post('/v1/models/m/rewards', `{"eventId":"${ev[0]}","reward":${i % 2}}`);
    } else {
      await post(
        '/v1/models/m/rank/batch',
        `{"events":[${ev.map((e) => `{"eventId":"${e}","arms":${arms}}`).join(',')}]}`,
      );
      await post(
        '/v1/models/m/rewards/batch',
        `{"rewards":[${ev.map((e, j) => `{"eventId":"${e}","reward":${j % 2}}`).join(',')}]}`,
      );
    }
    pairs += batch;
  }
}

const per = Math.ceil(total / batch / 8);
await Promise.all(Array.from({ length: 8 }, (_, i) => worker(i, Math.max(1, Math.floor(per / 5)), 'w')));
pairs = 0;
const c0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
await Promise.all(Array.from({ length: 8 }, (_, i) => worker(i, per, 'm')));
const cu = process.cpuUsage(c0);
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = (cu.user + cu.system) / 1e6;
process.stdout.write(
  `${JSON.stringify({ mode, dim: d, arms: k, batch, pairs, cpuSeconds: cpu, wallSeconds: wall, cpuMicrosecondsPerPair: (1e6 * cpu) / pairs })}\n`,
);
await server.close();
rmSync(dir, { recursive: true, force: true });
