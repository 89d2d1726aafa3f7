import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION, SqliteStore } from '../../src/store/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';

const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
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
  assert.deepEqual(JSON.parse(first.stdout), { from: 0, to: SCHEMA_VERSION });
  const second = await run(['migrate', '--db', url]);
  assert.equal(second.status, 0, second.stderr);
  assert.match(second.stdout, new RegExp(`schema is at version ${SCHEMA_VERSION}; nothing to do`));
});

test('migrate --db <file>: SQLite step by step (an empty file from 0, the 0.1.0 fixture at 1); a newer, missing or served file is refused (exit 2, one line)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-migrate-'));
  try {
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    const first = await run(['migrate', '--db', empty, '--json']);
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { from: 0, to: SCHEMA_VERSION, snapshots: 0 });
    const fixture = join(dir, 'fixture.db');
    copyFileSync(
      fileURLToPath(new URL('../../../test/fixtures/service-db-0.1.0/adaprivate-0.1.0.db', import.meta.url)),
      fixture,
    );
    // the 0.1.0 file is at version 1: each step up to this version runs
    const step = await run(['migrate', '--db', fixture]);
    assert.equal(step.status, 0, step.stderr);
    assert.equal(SCHEMA_VERSION > 1, true, 'a step beyond 0.1.0');
    assert.match(step.stdout, new RegExp(`schema migrated from version 1 to ${SCHEMA_VERSION}`));
    const again = await run(['migrate', '--db', fixture]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`schema is at version ${SCHEMA_VERSION}; nothing to do`));
    const s = SqliteStore.open(fixture, { lock: true });
    const held = await run(['migrate', '--db', fixture]);
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
      new RegExp(`has schema version 99; this version of adaprivate reads up to ${SCHEMA_VERSION}`),
    );
    const missing = await run(['migrate', '--db', join(dir, 'none.db')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no such file/);
    const help = await run(['migrate', '--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, new RegExp(`schema\\) version ${SCHEMA_VERSION}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
