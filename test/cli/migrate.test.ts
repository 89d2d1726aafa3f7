import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SCHEMA_VERSION } from '../../src/store/schema.js';
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

test('migrate refuses a non-PostgreSQL --db with exit code 2 and one line', async () => {
  const r = await run(['migrate', '--db', './adaprivate.db']);
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /--db must be a postgres:\/\/ or postgresql:\/\/ connection string/);
  const help = await run(['migrate', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, new RegExp(`schema version ${SCHEMA_VERSION}`));
});
