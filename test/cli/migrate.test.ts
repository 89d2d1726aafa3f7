import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteStore, schemaVersionOf } from '../../src/store/index.js';

const PG_VERSION = schemaVersionOf('postgres');
const SQLITE_VERSION = schemaVersionOf('sqlite');

import { type PostgresServer, startPostgres } from '../support/postgres.js';
import { runCli } from './runCli.js';

const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
// in-process (runCli) except where another process is the point
const run = runCli;

function spawnCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(async () => {
  await server?.stop();
});

test('migrate --db brings an empty database to the current version, then has nothing to do', async () => {
  const url = await server.createDatabase();
  const first = await run(['migrate', '--db', url, '--json']);
  assert.equal(first.status, 0, first.stderr);
  assert.deepEqual(JSON.parse(first.stdout), { from: 0, to: PG_VERSION });
  const second = await run(['migrate', '--db', url]);
  assert.equal(second.status, 0, second.stderr);
  assert.match(second.stdout, new RegExp(`schema is at version ${PG_VERSION}; nothing to do`));
});

test('migrate --db <file>: SQLite step by step (an empty file from 0, the 0.1.0 fixture at 1); a newer, missing or served file is refused (exit 2, one line)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-migrate-'));
  try {
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    const first = await run(['migrate', '--db', empty, '--json']);
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { from: 0, to: SQLITE_VERSION, snapshots: 0 });
    const fixture = join(dir, 'fixture.db');
    copyFileSync(
      fileURLToPath(new URL('../../../test/fixtures/service-db-0.1.0/adaprivate-0.1.0.db', import.meta.url)),
      fixture,
    );
    // the 0.1.0 file is at version 1: each step up to this version runs
    const step = await run(['migrate', '--db', fixture]);
    assert.equal(step.status, 0, step.stderr);
    assert.equal(SQLITE_VERSION > 1, true, 'a step beyond 0.1.0');
    assert.match(step.stdout, new RegExp(`schema migrated from version 1 to ${SQLITE_VERSION}`));
    const again = await run(['migrate', '--db', fixture]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`schema is at version ${SQLITE_VERSION}; nothing to do`));
    const s = SqliteStore.open(fixture, { lock: true });
    // spawned: the lock is held by this process
    const held = await spawnCli(['migrate', '--db', fixture]);
    await s.close();
    assert.equal(held.status, 2);
    assert.match(held.stderr, /in use by another server/);
    const db = new Database(fixture);
    db.prepare("UPDATE meta SET value = '99' WHERE key = 'schema_version'").run();
    db.close();
    const newer = await run(['migrate', '--db', fixture]);
    assert.equal(newer.status, 2);
    assert.equal(newer.stderr.trim().split('\n').length, 1, newer.stderr);
    assert.match(
      newer.stderr,
      new RegExp(`has schema version 99; this version of adaprivate reads up to ${SQLITE_VERSION}`),
    );
    const missing = await run(['migrate', '--db', join(dir, 'none.db')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no such file/);
    const help = await run(['migrate', '--help']);
    assert.equal(help.status, 0);
    assert.match(
      help.stdout,
      new RegExp(
        `version this adaprivate reads \\(${SQLITE_VERSION} for a SQLite\\s+file, ${PG_VERSION} for\\s+PostgreSQL\\)`,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("migrate --db postgres:// with the replicas' snapshot key brings stored 0.1.0 snapshots to the current format and signs them; a replica then serves them", async () => {
  const { PostgresStore } = await import('../../src/store/index.js');
  const { createServer } = await import('../../src/service/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-migrate-pg-'));
  const KEY = 'migrate-pg-snapshot-key-0123456789abcdef';
  try {
    const keyFile = join(dir, 'snapshot.key');
    writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
    const otherKey = join(dir, 'other.key');
    writeFileSync(otherKey, 'another-snapshot-key-0123456789abcdefgh\n', { mode: 0o600 });
    // the 0.1.0 models (unsigned snapshots of the old format) in a PostgreSQL database
    const url = await server.createDatabase();
    const fixture = new Database(
      fileURLToPath(new URL('../../../test/fixtures/service-db-0.1.0/adaprivate-0.1.0.db', import.meta.url)),
      { readonly: true },
    );
    const rows = fixture.prepare('SELECT * FROM models ORDER BY name').all() as {
      name: string;
      policy: string;
      options: string;
      settings: string;
      created_at: number;
      snapshot: string;
    }[];
    fixture.close();
    assert.ok(rows.length > 0);
    const store = await PostgresStore.open(url);
    for (const r of rows) {
      await store.createModel({
        name: r.name,
        policy: r.policy,
        options: JSON.parse(r.options),
        settings: JSON.parse(r.settings),
        createdAt: r.created_at,
        snapshot: r.snapshot,
      });
    }
    await store.close();
    const serve = async () =>
      createServer({
        store: await PostgresStore.open(url, { migrate: false }),
        apiKeys: ['migrate-pg-api-key-0123456789abcdefghij'],
        snapshotKey: KEY,
        logger: false,
        defaultMetrics: false,
      });
    await assert.rejects(
      serve(),
      /cannot load model/,
      'a replica never accepts an unsigned snapshot by itself',
    );
    // without a key: the schema only, and a note
    const bare = await run(['migrate', '--db', url, '--json']);
    assert.equal(bare.status, 0, bare.stderr);
    assert.deepEqual(JSON.parse(bare.stdout), { from: PG_VERSION, to: PG_VERSION });
    assert.match(bare.stderr, /stored policy snapshots not checked/);
    const signed = await run(['migrate', '--db', url, '--snapshot-key-file', keyFile, '--json']);
    assert.equal(signed.status, 0, signed.stderr);
    assert.deepEqual(JSON.parse(signed.stdout), {
      from: PG_VERSION,
      to: PG_VERSION,
      snapshots: rows.length,
    });
    const s = await serve();
    try {
      for (const r of rows) {
        const res = await s.app.inject({
          method: 'GET',
          url: `/v1/models/${r.name}`,
          headers: { authorization: 'Bearer migrate-pg-api-key-0123456789abcdefghij' },
        });
        assert.equal(res.statusCode, 200, res.body);
      }
    } finally {
      await s.close();
    }
    const again = await run(['migrate', '--db', url, '--snapshot-key-file', keyFile, '--json']);
    assert.equal(JSON.parse(again.stdout).snapshots, 0, 'already current and signed');
    // a snapshot signed under the replicas' key does not verify under another key: refused, nothing changed
    const wrong = await run(['migrate', '--db', url, '--snapshot-key-file', otherKey]);
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /model '/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
