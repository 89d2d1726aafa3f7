/**
 * A server that cannot load a stored model (a snapshot of a format it does not read: what a replica
 * of an older version meets during a rolling upgrade) exits with one line naming the model, on
 * PostgreSQL as on SQLite. Until 2026-12-02 a PostgreSQL replica printed one line and then neither
 * listened nor exited (its pool kept the process alive). Nothing here waits on a timer: each step
 * waits for an exit or a line.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { migratePostgres, PostgresStore, SqliteStore, type Store } from '../../src/store/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';
import { startServeChild } from '../support/serveChild.js';

const KEY = 'start-failure-key-0123456789abcdefghij';
const dir = mkdtempSync(join(tmpdir(), 'adaprivate-start-'));
let pg: PostgresServer;
before(async () => {
  pg = await startPostgres();
});
after(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A model row whose snapshot is of a format this version does not read (version 99). */
async function writeUnreadableModel(store: Store): Promise<void> {
  await store.createModel({
    name: 'future',
    policy: 'lints',
    options: { dim: 1, horizon: 10, seed: 1 },
    settings: {
      rewardWindowSeconds: 60,
      defaultReward: null,
      duplicateRule: 'first',
      logRewards: false,
      logCandidates: true,
      probabilitySamples: 1,
      retainDecisionsDays: null,
    },
    createdAt: 1,
    snapshot: JSON.stringify({
      format: 'adaprivate.policySnapshot',
      version: 99,
      library: '9.9.9',
      id: 'lints',
    }),
  });
  await store.durable();
  await store.close();
}

for (const engine of ['postgres', 'sqlite'] as const) {
  test(`serve (${engine}): a stored model it cannot load stops the start with one line naming it, and the process exits`, async () => {
    let db: string;
    if (engine === 'postgres') {
      db = await pg.createDatabase();
      await migratePostgres(db);
      await writeUnreadableModel(await PostgresStore.open(db));
    } else {
      db = join(dir, 'future.db');
      await writeUnreadableModel(SqliteStore.open(db));
    }
    const life = await startServeChild(db, KEY, '');
    after(() => life.child.kill('SIGKILL'));
    const e = await life.exited;
    assert.equal(life.url, null, 'never listened');
    assert.equal(e.code, 2, e.stderr);
    assert.match(e.stderr, /cannot load model 'future' \(policy lints\)/);
    assert.equal(e.stderr.trim().split('\n').length, 1, `one line: ${e.stderr}`);
  });
}
