/**
 * DELETE /v1/models/{name} (issue 26) on both engines: a tombstone by default (the model stops
 * serving, its decisions, features and raw pending rewards are erased, its ledger is kept, the name
 * cannot be created again), a purge only when confirmed with the name (the ledger goes too and the
 * name is free). On SQLite the raw pending rewards' bytes leave the database and WAL files; on
 * PostgreSQL a second replica stops serving the model as well. Nothing here waits on a timer.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AdaPrivateClientError } from '../../src/client/index.js';
import { PostgresStore } from '../../src/store/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';
import { startTestServer, type TestServer } from './testServer.js';

const TS = { policy: 'adaprivate-ts', options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 3, seed: 7 } };
const ARMS = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
];
/** Distinctive rewards: no other value in the files has their 8 bytes. */
const RAW = [0.7316840251937415, 0.2718281828459045];
const SNAPSHOT_KEY = 'delete-model-snapshot-key-0123456789abcdef';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-delete-'));
let pg: PostgresServer;
before(async () => {
  pg = await startPostgres();
});
after(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The 8 bytes SQLite stores for a REAL (big-endian IEEE 754). */
function realBytes(x: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(x);
  return b;
}

function filesHolding(path: string, x: number): string[] {
  return [path, `${path}-wal`].filter((f) => existsSync(f) && readFileSync(f).includes(realBytes(x)));
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AdaPrivateClientError) return `${e.status} ${e.code}`;
    throw e;
  }
  return 'ok';
}

/** A model with one released batch (3 rewards) and 2 raw rewards pending. */
async function modelWithPending(t: TestServer, name: string): Promise<void> {
  await t.client.createModel(name, TS);
  const rewards = [0.5, 0.25, 1, ...RAW];
  for (const [i, r] of rewards.entries()) {
    const d = await t.client.rank(name, { eventId: `${name}-${i}`, arms: ARMS });
    await t.client.reward(name, { eventId: d.eventId, reward: r });
  }
  await t.client.rank(name, { eventId: `${name}-open`, arms: ARMS });
  const s = await t.client.status(name);
  assert.equal(s.pendingRewards, 2);
  assert.equal(s.modelVersion, 1);
}

for (const engine of ['sqlite', 'postgres'] as const) {
  test(`DELETE (${engine}): a tombstone stops serving, erases decisions and pending rewards, keeps the ledger; the name cannot be created again`, async () => {
    const db = engine === 'sqlite' ? join(dir, 'tomb.db') : await pg.createDatabase();
    const store = engine === 'postgres' ? { store: await PostgresStore.open(db) } : { db };
    const t = await startTestServer({ ...store, snapshotKey: SNAPSHOT_KEY });
    try {
      await modelWithPending(t, 'm');
      await modelWithPending(t, 'other');
      const ledgerBefore = await t.client.ledger('m');
      assert.equal(ledgerBefore.releases.length, 1);
      if (engine === 'sqlite') {
        await t.server.store.durable();
        for (const x of RAW) assert.notDeepEqual(filesHolding(db, x), [], 'pending reward on disk before');
      }

      const r = await t.client.deleteModel('m');
      assert.deepEqual(r, {
        name: 'm',
        outcome: 'deleted',
        ledgerKept: true,
        deletedAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
        erased: { decisions: 6, pendingRewards: 2, unitCounts: 0, ledgerRows: 0 },
      });
      // (model 'other' holds the same raw values: the files are checked once it is deleted too)
      assert.equal(await codeOf(t.client.rank('m', { arms: ARMS })), '410 model_deleted');
      assert.equal(await codeOf(t.client.reward('m', { eventId: 'm-open', reward: 1 })), '410 model_deleted');
      assert.equal(await codeOf(t.client.status('m')), '410 model_deleted');
      assert.equal(await codeOf(t.client.exportDecisions('m')), '410 model_deleted');
      assert.deepEqual(
        (await t.client.listModels()).map((m) => m.name),
        ['other'],
      );
      // the ledger is kept, with the same releases and guarantee, and says when the model was deleted
      const kept = await t.client.ledger('m');
      assert.deepEqual(kept.releases, ledgerBefore.releases);
      assert.deepEqual(kept.privacy, ledgerBefore.privacy);
      assert.equal(kept.deletedAt, r.deletedAt);
      // the name cannot start again from a zero budget
      const again = await t.raw('PUT', '/v1/models/m', TS);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'model_deleted');
      assert.match(again.body.message, /spent budget would restart from zero/);
      // deleting again changes nothing
      const twice = await t.client.deleteModel('m');
      assert.equal(twice.outcome, 'already-deleted');
      assert.deepEqual(twice.erased, { decisions: 0, pendingRewards: 0, unitCounts: 0, ledgerRows: 0 });
      // the other model still serves
      assert.equal((await t.client.status('other')).pendingRewards, 2);
      assert.equal(await codeOf(t.client.deleteModel('never-was')), '404 model_not_found');

      if (engine === 'sqlite') {
        await t.client.deleteModel('other');
        for (const x of RAW) assert.deepEqual(filesHolding(db, x), [], `raw reward ${x} left the files`);
      } else {
        const s = t.server.store;
        assert.equal((await s.counts('m')).decisions, 0);
        assert.equal((await s.counts('m')).pendingRewards, 0);
        assert.equal((await s.ledger('m')).length, 1);
      }
    } finally {
      await t.close();
    }
  });

  test(`DELETE (${engine}): a purge needs confirm=<name>; it removes the ledger and frees the name`, async () => {
    const db = engine === 'sqlite' ? join(dir, 'purge.db') : await pg.createDatabase();
    const store = engine === 'postgres' ? { store: await PostgresStore.open(db) } : { db };
    const t = await startTestServer({ ...store, snapshotKey: SNAPSHOT_KEY });
    try {
      await modelWithPending(t, 'p');
      for (const q of ['?purge=true', '?purge=true&confirm=P', '?purge=true&confirm=']) {
        const r = await t.raw('DELETE', `/v1/models/p${q}`);
        assert.equal(r.status, 400, q);
        assert.equal(r.body.code, 'purge_not_confirmed', q);
      }
      assert.equal((await t.client.status('p')).pendingRewards, 2, 'a refused purge changed nothing');
      assert.equal((await t.raw('DELETE', '/v1/models/p?purge=yes')).status, 400);
      // tombstone first, then purge the tombstone
      await t.client.deleteModel('p');
      const r = await t.client.deleteModel('p', { purge: { confirm: 'p' } });
      assert.deepEqual(r, {
        name: 'p',
        outcome: 'purged',
        ledgerKept: false,
        deletedAt: null,
        erased: { decisions: 0, pendingRewards: 0, unitCounts: 0, ledgerRows: 1 },
      });
      assert.equal(await codeOf(t.client.ledger('p')), '404 model_not_found');
      // a served model purged at once
      await modelWithPending(t, 'q');
      const q = await t.client.deleteModel('q', { purge: { confirm: 'q' } });
      assert.deepEqual(q.erased, { decisions: 6, pendingRewards: 2, unitCounts: 0, ledgerRows: 1 });
      assert.equal(await codeOf(t.client.rank('q', { arms: ARMS })), '404 model_not_found');
      // the name is free: a new model with a fresh ledger
      const c = await t.client.createModel('p', TS);
      assert.equal(c.created, true);
      assert.deepEqual((await t.client.ledger('p')).releases, []);
      if (engine === 'sqlite') {
        for (const x of RAW) assert.deepEqual(filesHolding(db, x), [], `raw reward ${x} left the files`);
      }
    } finally {
      await t.close();
    }
  });
}

test('DELETE (postgres, two replicas): the other replica stops serving the model and refuses to create it again', async () => {
  const db = await pg.createDatabase();
  const a = await startTestServer({ store: await PostgresStore.open(db), snapshotKey: SNAPSHOT_KEY });
  // versionCheckMs 0: B checks the stored version before every request, whether or not the
  // deletion's notification has arrived (no waiting for it)
  const b = await startTestServer({
    store: await PostgresStore.open(db),
    snapshotKey: SNAPSHOT_KEY,
    versionCheckMs: 0,
  });
  try {
    await modelWithPending(a, 'r');
    const d = await b.client.rank('r', { eventId: 'from-b', arms: ARMS });
    assert.equal(d.modelVersion, 1);
    await a.client.deleteModel('r');
    assert.equal(await codeOf(b.client.rank('r', { arms: ARMS })), '410 model_deleted');
    assert.equal(await codeOf(b.client.reward('r', { eventId: 'from-b', reward: 1 })), '410 model_deleted');
    assert.equal(await codeOf(b.client.createModel('r', TS)), '409 model_deleted');
    assert.equal((await b.client.ledger('r')).releases.length, 1);
    assert.equal((await a.server.store.counts('r')).decisions, 0);
  } finally {
    await b.close();
    await a.close();
  }
});

// SQLite only: replicas on PostgreSQL do not serve privacyUnit 'user' models in this version (the
// PostgreSQL deletion erases unit_counts by the same statement list; extend when they do)
for (const engine of ['sqlite'] as const) {
  test(`DELETE (${engine}): a user-level model's units and per-unit counts are erased; its ledger and dropped totals stay`, async () => {
    const t = await startTestServer({ snapshotKey: SNAPSHOT_KEY });
    const USER = {
      policy: 'adaprivate-ts',
      options: {
        dim: 2,
        horizon: 1000,
        epsilon: 1,
        batchSize: 3,
        seed: 7,
        privacyUnit: 'user',
        releasesPerEpoch: 2,
        epochDays: 30,
      },
    };
    try {
      await t.client.createModel('u', USER);
      for (let i = 0; i < 4; i++) {
        const d = await t.client.rank('u', { eventId: `u${i}`, unit: `user-${i % 2}`, arms: ARMS });
        await t.client.reward('u', { eventId: d.eventId, reward: 1 });
      }
      const s = t.server.store;
      assert.ok((await s.unitCountRows('u')) > 0, 'unit counts stored before');
      const before = await t.client.ledger('u');
      const r = await t.client.deleteModel('u');
      assert.equal(r.erased.decisions, 4);
      assert.ok(r.erased.unitCounts > 0);
      assert.equal(await s.unitCountRows('u'), 0);
      assert.equal(await s.unitCount('u', 'user-0'), null);
      const kept = await t.client.ledger('u');
      assert.deepEqual(kept.releases, before.releases);
      // the guarantee and the dropped totals are kept; the epoch index ("current") is the live
      // model's clock and has no meaning for a deleted model
      const { epoch: e1, ...p1 } = kept.privacy as typeof kept.privacy & { epoch?: object };
      const { epoch: e0, ...p0 } = before.privacy as typeof before.privacy & { epoch?: object };
      assert.deepEqual(p1, p0);
      assert.ok(e0 !== undefined && e1 !== undefined);
    } finally {
      await t.close();
    }
  });
}
