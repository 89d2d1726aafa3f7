import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PostgresStore } from '../../src/store/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';
import { createSumModel, rewardOf, sumRelease } from '../support/storeFixtures.js';

const replica = fileURLToPath(new URL('../support/storeReplica.js', import.meta.url));

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(async () => {
  await server?.stop();
});

/** Runs one replica incarnation; resolves with the events it acknowledged and how it ended. */
function runReplica(url: string, batch: number, killAt: number, events: readonly string[]) {
  return new Promise<{ acked: string[]; signal: NodeJS.Signals | null; code: number | null }>((resolve) => {
    const child = spawn(process.execPath, [replica, url, 'm', String(batch), String(killAt), ...events], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.on('close', (code, signal) => {
      const acked = out
        .split('\n')
        .filter((l) => l.startsWith('ack '))
        .map((l) => l.slice(4));
      resolve({ acked, signal, code });
    });
  });
}

test('three replica processes, SIGKILLed inside release transactions: every acknowledged reward counted once, no batch released twice', async (t) => {
  const url = await server.createDatabase();
  const batch = 5;
  const n = 90;
  const setup = await PostgresStore.open(url);
  await createSumModel(setup, 'm', n, true);
  const acked = new Set<string>();
  let kills = 0;
  // three replicas, each with its own events; each incarnation of the first two is killed in its
  // 1st or 2nd release transaction until it has died 3 times, then restarted on what it has not
  // acknowledged (a restarted replica catches up from the database)
  await Promise.all(
    [0, 1, 2].map(async (r) => {
      let todo = Array.from({ length: n / 3 }, (_, i) => `e${3 * i + r}`);
      for (let incarnation = 0; todo.length > 0; incarnation++) {
        const killAt = r < 2 && incarnation < 3 ? 1 + (incarnation % 2) : 0;
        const run = await runReplica(url, batch, killAt, todo);
        for (const e of run.acked) acked.add(e);
        if (run.signal === 'SIGKILL') kills++;
        else assert.equal(run.code, 0, `replica ${r} failed`);
        todo = todo.filter((e) => !run.acked.includes(e));
        assert.ok(incarnation < 20, 'a replica makes no progress');
      }
    }),
  );
  assert.ok(kills >= 5, `only ${kills} kills happened`);
  t.diagnostic(`${kills} replicas killed inside a release transaction`);
  assert.equal(acked.size, n);
  // the survivors' work is complete; release whatever full batches are left
  while ((await setup.releaseBatch('m', batch, 4, sumRelease)) !== null);
  const ledger = await setup.ledger('m');
  assert.deepEqual(
    ledger.map((l) => l.version),
    Array.from({ length: n / batch }, (_, i) => i + 1),
    'versions 1..K, each once',
  );
  assert.ok(ledger.every((l) => l.rewards === batch));
  const state = await setup.loadModelState('m');
  assert.deepEqual(state?.pending, []);
  const snap = JSON.parse(state?.snapshot ?? '{}') as { sum: number; rounds: number };
  const exact = [...acked].reduce((s, e) => s + rewardOf(e), 0);
  assert.equal(snap.rounds, n);
  assert.ok(Math.abs(snap.sum - exact) < 1e-9, `released sum ${snap.sum}, acknowledged ${exact}`);
  const decisions = await setup.exportDecisions('m', { limit: n + 1 });
  assert.ok(decisions.every((d) => d.rewardState === 'released' && d.reward === rewardOf(d.eventId)));
  assert.equal((await setup.counts('m')).releasedRewards, n);
  await setup.close();
});

const batcher = fileURLToPath(new URL('../support/storeRewardBatcher.js', import.meta.url));

/** Runs one incarnation of the batching replica; resolves with its acknowledgements. */
function runBatcher(url: string, killAfter: number, events: readonly string[]) {
  return new Promise<{
    acked: string[];
    largest: number;
    signal: NodeJS.Signals | null;
    code: number | null;
  }>((resolve) => {
    const child = spawn(process.execPath, [batcher, url, 'b', String(killAfter), ...events], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.on('close', (code, signal) => {
      const lines = out.split('\n').filter((l) => l.startsWith('ack '));
      resolve({
        acked: lines.map((l) => l.split(' ')[1]!),
        largest: Math.max(0, ...lines.map((l) => Number(l.split(' ')[2]))),
        signal,
        code,
      });
    });
  });
}

test('batched reward inserts: a replica SIGKILLed with statements in flight loses no acknowledged reward, and none is stored twice', async () => {
  const url = await server.createDatabase();
  const n = 120;
  const setup = await PostgresStore.open(url);
  await createSumModel(setup, 'b', n, true);
  const events = Array.from({ length: n }, (_, i) => `e${i}`);
  const first = await runBatcher(url, 30, events);
  assert.equal(first.signal, 'SIGKILL');
  assert.equal(first.acked.length, 30);
  // the fast path ran: rewards sent at once shared statements
  assert.ok(first.largest > 1, `largest batch ${first.largest}: the rewards were not batched`);
  const afterKill = await setup.loadModelState('b');
  const pendingIds = new Set(afterKill?.pending.map((p) => p.eventId));
  for (const e of first.acked) assert.ok(pendingIds.has(e), `acknowledged reward ${e} was lost`);
  assert.equal(pendingIds.size, afterKill?.pending.length, 'a reward is pending twice');
  // a restart sends them all again: the committed ones are duplicates, the rest are recorded
  const second = await runBatcher(url, 0, events);
  assert.equal(second.code, 0);
  assert.equal(second.acked.length, n);
  const state = await setup.loadModelState('b');
  assert.deepEqual(
    state?.pending.map((p) => p.eventId).sort(),
    [...events].sort(),
    'every reward pending once',
  );
  for (const p of state?.pending ?? []) assert.equal(p.reward, rewardOf(p.eventId));
  const decisions = await setup.exportDecisions('b', { limit: n + 1 });
  assert.ok(decisions.every((d) => d.rewardState === 'pending' && d.reward === rewardOf(d.eventId)));
  await setup.close();
});
