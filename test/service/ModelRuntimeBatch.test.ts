// A batch on a single server runs as one turn on the model's queue (ModelRuntime.rankMany and
// rewardMany): each event as its own call would, with the same outcome when a write or the commit
// fails. A write that fails makes the model stale: the events after it in the batch are refused
// (503 model_reloading), never decided from a state the database does not have; a failed commit
// fails every event that waited for it.
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

/** A database with model `m` (AdaPrivate-TS, d = 2, batches of 2) and a runtime on it. */
async function setUp(dir: string): Promise<{ store: SqliteStore; rt: ModelRuntime }> {
  const db = join(dir, 'service.db');
  await createModelInFile(db, snapshotKey, 'm', {
    policy: 'adaprivate-ts',
    options: { dim: 2, horizon: 1000, seed: 3, epsilon: 1, batchSize: 2 },
  });
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

test('rankMany: a write that fails mid-batch fails its event; the events after it are refused (503), none decided', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-batch-'));
  try {
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rewardMany: rewards in order, the completing one releases; a failed commit fails every event of the batch', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-batch-'));
  try {
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
