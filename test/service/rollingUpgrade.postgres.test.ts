/**
 * A rolling upgrade on PostgreSQL (issue 26): replicas of two adjacent versions on one database, the
 * newer one emulated by what it writes (this code is the older one).
 *
 * - Snapshot format: a newer replica releases model 'm' (a snapshot of format + 1, the next version,
 *   a ledger row, its notification). The running older replica answers 503 replica_outdated for
 *   'm' only, naming both versions (never a 500), and keeps serving every other model; an older
 *   replica that starts now exits 2 with one line naming the model instead of serving or hanging.
 * - Store format: the newer version's `migrate` raised the schema version. The running older replica
 *   keeps serving; one that starts now exits 2 with one line naming both versions.
 *
 * Nothing here waits on a timer: the older replica checks the stored version before every request
 * (versionCheckMs 0) and each child start waits for its exit.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { SNAPSHOT_FORMAT_VERSION } from '../../src/policies/index.js';
import { PostgresStore, RELEASE_CHANNEL, schemaVersionOf } from '../../src/store/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';
import { startServeChild } from '../support/serveChild.js';
import { startTestServer } from './testServer.js';

/** The schema version of a PostgreSQL database (step 6 is SQLite's alone). */
const SCHEMA_VERSION = schemaVersionOf('postgres');

const KEY = 'rolling-upgrade-api-key-0123456789abcdef';
// the snapshot key startServeChild gives its children (replicas share one key)
const SNAPSHOT_KEY = `snapshot key of the test servers, ${KEY}`;
const TS = { policy: 'adaprivate-ts', options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 3, seed: 7 } };
const ARMS = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
];

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(() => server?.stop());

/** What a newer replica's release of `model` writes: a snapshot of the next format, a ledger row, a notification. */
async function newerRelease(url: string, model: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('BEGIN');
    const r = await c.query<{ version: string; snapshot: string }>(
      'SELECT version, snapshot FROM models WHERE name = $1 FOR UPDATE',
      [model],
    );
    const row = r.rows[0]!;
    const next = Number(row.version) + 1;
    const snapshot = { ...JSON.parse(row.snapshot), version: SNAPSHOT_FORMAT_VERSION + 1, library: '9.9.9' };
    await c.query('UPDATE models SET version = $1, snapshot = $2 WHERE name = $3', [
      next,
      JSON.stringify(snapshot),
      model,
    ]);
    await c.query(
      `INSERT INTO ledger (model, version, time, releases, rounds, rewards, spent) VALUES ($1, $2, 1, 1, 3, 0, '{}')`,
      [model, next],
    );
    await c.query('SELECT pg_notify($1, $2)', [RELEASE_CHANNEL, `${next}:${model}`]);
    await c.query('COMMIT');
  } finally {
    await c.end();
  }
}

test('rolling upgrade (snapshot format): the older replica answers 503 replica_outdated for the model a newer one released, serves the others; a restarting older replica exits with one line', async () => {
  const url = await server.createDatabase();
  const old = await startTestServer({
    store: await PostgresStore.open(url),
    snapshotKey: SNAPSHOT_KEY,
    versionCheckMs: 0,
  });
  try {
    for (const m of ['m', 'n']) {
      await old.client.createModel(m, TS);
      await old.client.rank(m, { arms: ARMS });
    }
    await newerRelease(url, 'm');
    for (const [method, path, body] of [
      ['POST', '/v1/models/m/rank', { arms: ARMS }],
      ['GET', '/v1/models/m', undefined],
    ] as const) {
      const r = await old.raw(method, path, body);
      assert.equal(r.status, 503, `${method} ${path}: ${r.text}`);
      assert.equal(r.body.code, 'replica_outdated');
      assert.match(
        r.body.message,
        new RegExp(
          `model 'm' was last released by a newer adaprivate \\(snapshot format ${SNAPSHOT_FORMAT_VERSION + 1}\\); this replica .* reads snapshot formats up to ${SNAPSHOT_FORMAT_VERSION}`,
        ),
      );
    }
    assert.equal((await old.client.rank('n', { arms: ARMS })).chosenId.length, 1, 'other models serve');
    assert.equal((await old.client.status('n')).decisions, 2);
    assert.equal((await old.client.health()).status, 'ok');
    // an older replica that starts now refuses with one line and exits (never listens, never hangs)
    const life = await startServeChild(url, KEY, '');
    after(() => life.child.kill('SIGKILL'));
    const e = await life.exited;
    assert.equal(life.url, null);
    assert.equal(e.code, 2, e.stderr);
    assert.equal(e.stderr.trim().split('\n').length, 1, e.stderr);
    assert.match(e.stderr, /cannot load model 'm' \(policy adaprivate-ts\): .*newer adaprivate/);
  } finally {
    await old.close();
  }
});

test('rolling upgrade (store format): after the newer version migrated the schema, the running older replica keeps serving; a restarting one exits with one line naming both versions', async () => {
  const url = await server.createDatabase();
  const old = await startTestServer({
    store: await PostgresStore.open(url),
    snapshotKey: SNAPSHOT_KEY,
    versionCheckMs: 0,
  });
  try {
    await old.client.createModel('m', TS);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query("UPDATE meta SET value = $1 WHERE key = 'schema_version'", [String(SCHEMA_VERSION + 1)]);
    await c.end();
    const d = await old.client.rank('m', { arms: ARMS });
    await old.client.reward('m', { eventId: d.eventId, reward: 1 });
    assert.equal((await old.client.status('m')).pendingRewards, 1);
    const life = await startServeChild(url, KEY, '');
    after(() => life.child.kill('SIGKILL'));
    const e = await life.exited;
    assert.equal(life.url, null);
    assert.equal(e.code, 2, e.stderr);
    assert.equal(e.stderr.trim().split('\n').length, 1, e.stderr);
    assert.match(
      e.stderr,
      new RegExp(
        `has schema version ${SCHEMA_VERSION + 1}; this version of adaprivate reads up to ${SCHEMA_VERSION}`,
      ),
    );
  } finally {
    await old.close();
  }
});
