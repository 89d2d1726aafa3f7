import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { SQLITE_SCHEMA_VERSION, SqliteStore } from '../../src/store/index.js';
import { MIGRATIONS, migrationStatements, SCHEMA_VERSION, schemaVersionOf } from '../../src/store/schema.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-schema-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Tables, columns (name, type, not null, default, pk) and indexes of a SQLite database. */
function describe(db: Database.Database) {
  const tables = (
    db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
      sql: string;
    }[]
  ).map((t) => ({
    name: t.name,
    strict: /STRICT\s*$/i.test(t.sql),
    columns: db.prepare(`PRAGMA table_info(${t.name})`).all(),
    indexes: (
      db.prepare(`PRAGMA index_list(${t.name})`).all() as { name: string; unique: number; partial: number }[]
    )
      .map((i) => ({
        name: i.name,
        unique: i.unique,
        partial: i.partial,
        columns: (db.prepare(`PRAGMA index_info(${i.name})`).all() as { name: string }[]).map((c) => c.name),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  }));
  return tables;
}

test('the shared schema rendered for SQLite is the schema SqliteStore creates', async () => {
  const path = join(dir, 'store.db');
  const store = SqliteStore.open(path);
  await store.close();
  const fromStore = new Database(path, { readonly: true });
  const shared = new Database(':memory:');
  for (const m of MIGRATIONS) for (const sql of migrationStatements(m, 'sqlite')) shared.exec(sql);
  assert.deepEqual(describe(shared), describe(fromStore));
  assert.equal(
    (fromStore.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string })
      .value,
    String(schemaVersionOf('sqlite')),
  );
  fromStore.close();
  shared.close();
});

test('migrations are numbered 1, 2, ... and render differently only in types', () => {
  MIGRATIONS.forEach((m, i) => {
    assert.equal(m.version, i + 1);
  });
  const lite = migrationStatements(MIGRATIONS[0]!, 'sqlite');
  const pgsql = migrationStatements(MIGRATIONS[0]!, 'postgres');
  assert.equal(lite.length, pgsql.length);
  assert.match(pgsql.join('\n'), /seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY/);
  assert.match(pgsql.join('\n'), /features BYTEA NOT NULL/);
  assert.doesNotMatch(pgsql.join('\n'), /STRICT|BLOB/);
  assert.match(lite[1]!, /^CREATE TABLE IF NOT EXISTS models \(.*\) STRICT$/);
});

test('steps of one engine: steps 6 (decision_features) and 8 (pending rewards on their decisions) are SQLite-only, step 7 (snapshot storage) PostgreSQL-only; each engine has its own version', () => {
  const six = MIGRATIONS[5]!;
  assert.deepEqual(six.dialects, ['sqlite']);
  assert.deepEqual(migrationStatements(six, 'postgres'), []);
  assert.match(
    migrationStatements(six, 'sqlite').join('\n'),
    /CREATE TABLE IF NOT EXISTS decision_features \(seq INTEGER PRIMARY KEY, features BLOB NOT NULL\) STRICT/,
  );
  assert.equal(Math.max(schemaVersionOf('sqlite'), schemaVersionOf('postgres')), SCHEMA_VERSION);
  const seven = MIGRATIONS[6]!;
  assert.deepEqual(migrationStatements(seven, 'sqlite'), []);
  assert.deepEqual(migrationStatements(seven, 'postgres'), [
    'ALTER TABLE models ALTER COLUMN snapshot SET STORAGE EXTERNAL',
  ]);
  const eight = MIGRATIONS[7]!;
  assert.deepEqual(migrationStatements(eight, 'postgres'), []);
  const lite8 = migrationStatements(eight, 'sqlite').join('\n');
  assert.match(lite8, /ALTER TABLE decisions ADD COLUMN pending REAL/);
  assert.match(lite8, /DROP TABLE pending_rewards/);
  assert.match(lite8, /CREATE VIEW pending_rewards/);
  assert.equal(schemaVersionOf('sqlite'), 8);
  assert.equal(schemaVersionOf('postgres'), 7);
  assert.equal(SQLITE_SCHEMA_VERSION, schemaVersionOf('sqlite'));
});
