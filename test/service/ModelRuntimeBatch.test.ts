// A batch on a single server runs as one turn on the model's queue (ModelRuntime.rankMany and
// rewardMany), with the outcome each event would get as its own call when a request is refused, a
// write fails or the commit fails. A write that fails makes the model stale: the events after it in
// the batch are refused (503 model_reloading) and nothing is stored for them; a failed commit fails
// every event that waited for it. A rank batch of a policy whose select never releases decides
// every event first and then stores the decisions (ModelRuntime.rankPhased): the same decisions,
// rows and answers as the events ranked one by one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createSnapshotKey } from '../../src/policies/index.js';
import { ModelRuntime } from '../../src/service/ModelRuntime.js';
import type { Outcome } from '../../src/service/ServedModel.js';
import { ServiceError } from '../../src/service/ServiceError.js';
import { ServiceMetrics } from '../../src/service/ServiceMetrics.js';
import { SqliteStore } from '../../src/store/index.js';
import { createModelInFile } from './testServer.js';

const snapshotKey = createSnapshotKey();

/** Runs `fn` in a new temporary directory, removed afterwards. */
async function inTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-batch-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A database with model `m` (AdaPrivate-TS, d = 2, batches of 2, unless `payload`) and a runtime on it. */
async function setUp(
  dir: string,
  payload: Record<string, unknown> = {
    policy: 'adaprivate-ts',
    options: { dim: 2, horizon: 1000, seed: 3, epsilon: 1, batchSize: 2 },
  },
  file = 'service.db',
): Promise<{ store: SqliteStore; rt: ModelRuntime }> {
  const db = join(dir, file);
  await createModelInFile(db, snapshotKey, 'm', payload);
  const store = SqliteStore.open(db, { groupCommit: true });
  const ctx = {
    store,
    now: () => Date.now(),
    metrics: new ServiceMetrics(),
    sweepIntervalMs: 0,
    snapshotKey,
  };
  const rt = await ModelRuntime.load('m', ctx);
  assert.ok(rt !== null);
  return { store, rt };
}

function ranks(n: number, from = 0) {
  return Array.from({ length: n }, (_, i) => ({
    eventId: `e${from + i}`,
    arms: [
      { id: 'a', features: [0.6, 0.8] },
      { id: 'b', features: [0.8, -0.6] },
    ],
  }));
}

function code(o: Outcome<object>): string {
  if (o.ok) return 'ok';
  return o.error instanceof ServiceError
    ? `${o.error.statusCode} ${o.error.code}`
    : `error: ${String(o.error)}`;
}

test('rankMany: a write that fails mid-batch fails its event; the events after it are refused (503), none stored', () =>
  inTempDir(async (dir) => {
    const { store, rt } = await setUp(dir);
    const insert = store.insertDecision.bind(store);
    let calls = 0;
    store.insertDecision = async (row, release) => {
      if (++calls === 3) throw new Error('disk I/O error');
      return insert(row, release);
    };
    const out = await rt.rankMany(ranks(5));
    assert.deepEqual(out.map(code), [
      'ok',
      'ok',
      'error: Error: disk I/O error',
      '503 model_reloading',
      '503 model_reloading',
    ]);
    assert.equal(calls, 3, 'no decision after the failed write reached the store');
    assert.equal(rt.stale, true);
    assert.ok((await store.getDecision('m', 'e1')) !== null);
    assert.equal(await store.getDecision('m', 'e3'), null);
    await store.close();
  }));

test('rewardMany: rewards in order, the completing one releases; a failed commit fails every event of the batch', () =>
  inTempDir(async (dir) => {
    const { store, rt } = await setUp(dir);
    assert.ok((await rt.rankMany(ranks(6))).every((o) => o.ok));
    const first = await rt.rewardMany([
      { eventId: 'e0', reward: 1 },
      { eventId: 'nope', reward: 1 },
      { eventId: 'e1', reward: 0 },
      { eventId: 'e1', reward: 0 },
    ]);
    assert.deepEqual(first.map(code), ['ok', '404 event_not_found', 'ok', '409 duplicate_reward']);
    // the second reward of the batch completed a batch of 2: it released (version 1)
    assert.deepEqual(
      first.map((o) => (o.ok ? [o.value.released, o.value.modelVersion] : null)),
      [[false, 0], null, [true, 1], null],
    );
    assert.equal(rt.stale, false, 'refused events leave the model serving');

    const durable = store.durable.bind(store);
    store.durable = async () => {
      await durable();
      throw new Error('commit failed');
    };
    const second = await rt.rewardMany([
      { eventId: 'e2', reward: 1 },
      { eventId: 'e3', reward: 1 },
    ]);
    assert.deepEqual(second.map(code), ['error: Error: commit failed', 'error: Error: commit failed']);
    assert.equal(rt.stale, true);
    store.durable = durable;
    await store.close();
  }));

/** Arms of event `i`: three arms whose features vary with `i` (d = 2). */
function armsOf(i: number) {
  return [0, 1, 2].map((a) => {
    const t = 0.7 * i + 2.1 * a;
    return { id: `a${a}`, features: [Math.cos(t), Math.sin(t)] };
  });
}

test('rankMany: a phased batch decides, stores and answers as the same events ranked one by one', () =>
  inTempDir(async (dir) => {
    // LinTS (no privacy noise: the server draws that from a secure source, so two private models
    // would release different states) with a seeded exploration stream
    const payload = { policy: 'lints', options: { dim: 2, horizon: 1000, seed: 11 } };
    const one = await setUp(dir, payload, 'one.db');
    const many = await setUp(dir, payload, 'many.db');
    // rewards in between, so that the batches after them decide from what was learned
    for (let round = 0; round < 3; round++) {
      const reqs = Array.from({ length: 12 }, (_, i) => ({
        eventId: `r${round}-${i}`,
        arms: armsOf(12 * round + i),
      }));
      const singles: Outcome<object>[] = [];
      for (const req of reqs) {
        singles.push(
          await one.rt.rank(req).then(
            (value) => ({ ok: true as const, value }),
            (error: unknown) => ({ ok: false as const, error }),
          ),
        );
      }
      const batch = await many.rt.rankMany(reqs);
      assert.deepEqual(batch.map(code), singles.map(code));
      assert.deepEqual(
        batch.map((o) => (o.ok ? o.value : null)),
        singles.map((o) => (o.ok ? o.value : null)),
      );
      for (const req of reqs) {
        const a = await one.store.getDecision('m', req.eventId);
        const b = await many.store.getDecision('m', req.eventId);
        assert.ok(a !== null && b !== null);
        assert.deepEqual({ ...b, seq: 0, time: 0 }, { ...a, seq: 0, time: 0 });
      }
      const rewards = reqs.map((r, i) => ({ eventId: r.eventId, reward: (i + round) % 2 }));
      assert.deepEqual(
        (await one.rt.rewardMany(rewards)).map(code),
        (await many.rt.rewardMany(rewards)).map(code),
      );
    }
    const [a, b] = [await one.rt.status(), await many.rt.status()];
    assert.equal(a.rounds, 36, 'every reward learned');
    assert.deepEqual({ ...b, createdAt: '' }, { ...a, createdAt: '' });
    await one.store.close();
    await many.store.close();
  }));

test('rankMany: a refused request or a taken event id fails alone; the others are stored and the model serves on', () =>
  inTempDir(async (dir) => {
    const { store, rt } = await setUp(dir);
    assert.ok((await rt.rankMany(ranks(1, 7))).every((o) => o.ok)); // e7 is taken
    const reqs = [
      ...ranks(2),
      { eventId: 'bad', arms: [{ id: 'a', features: [1, 0, 0] }] }, // d = 3 on a d = 2 model
      ...ranks(1, 7),
      ...ranks(1, 2),
      ...ranks(1, 2), // the same id twice in the batch: the second is taken by the first
      ...ranks(1, 3),
    ];
    const out = await rt.rankMany(reqs);
    assert.deepEqual(out.map(code), [
      'ok',
      'ok',
      '400 dimension_mismatch',
      '409 event_exists',
      'ok',
      '409 event_exists',
      'ok',
    ]);
    assert.equal(rt.stale, false);
    for (const id of ['e0', 'e1', 'e2', 'e3']) assert.ok((await store.getDecision('m', id)) !== null, id);
    assert.equal(await store.getDecision('m', 'bad'), null);
    // the status counts the stored decisions only
    const status = await rt.status();
    assert.equal(status.decisions, 5);
    await store.close();
  }));

test('rankMany: a stale model refuses the whole batch (503) and stores nothing', () =>
  inTempDir(async (dir) => {
    const { store, rt } = await setUp(dir);
    const insert = store.insertDecision.bind(store);
    store.insertDecision = async () => {
      throw new Error('disk I/O error');
    };
    await assert.rejects(rt.rank(ranks(1)[0]!), /disk I\/O error/);
    assert.equal(rt.stale, true);
    store.insertDecision = insert;
    const out = await rt.rankMany(ranks(3, 10));
    assert.deepEqual(out.map(code), ['503 model_reloading', '503 model_reloading', '503 model_reloading']);
    assert.equal(await store.getDecision('m', 'e10'), null);
    await store.close();
  }));
