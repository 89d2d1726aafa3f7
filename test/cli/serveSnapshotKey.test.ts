/**
 * The service's snapshot key (issue 24 item 4): `adaprivate serve` creates `<db>.snapshot-key`
 * once (mode 0600, beside `<db>.api-key`), serves its database again after a restart with it, and a
 * server given another key refuses the stored snapshots instead of loading them. `migrate snapshot`
 * is the explicit step for a 0.1.0 snapshot file. Nothing here waits on a timer.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadPolicyFile } from '../../src/policies/index.js';
import { runCli } from './runCli.js';

const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const fixtures = new URL('../../../test/fixtures/snapshots-0.1.0/', import.meta.url);
const KEY = 'serve-snapshot-key-test-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'adaprivate-snapkey-'));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL'); // a failed test's
  rmSync(dir, { recursive: true, force: true });
});

interface Proc {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; stderr: string }>;
  /** The startup line, or null when the process exited before printing it. */
  readonly started: Promise<{ url: string; snapshotKey: string } | null>;
}

function serve(db: string, extra: readonly string[] = [], env: Record<string, string> = {}): Proc {
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--db', db, '--port', '0', '--json', '--log-level', 'error', ...extra],
    { env: { ...process.env, ADAPRIVATE_API_KEY: KEY, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  );
  const started = new Promise<{ url: string; snapshotKey: string } | null>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (l.startsWith('{')) resolve(JSON.parse(l) as { url: string; snapshotKey: string });
    });
    exited.then(() => resolve(null));
  });
  return { child, exited, started };
}

const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

async function stop(p: Proc): Promise<void> {
  p.child.kill('SIGTERM');
  assert.equal((await p.exited).code, 0);
}

test('serve creates <db>.snapshot-key once (0600) and serves the database again after a restart', async () => {
  const db = join(dir, 'a.db');
  const first = serve(db);
  const s1 = await first.started;
  assert.ok(s1 !== null, 'serve starts');
  assert.equal(s1.snapshotKey, `${db}.snapshot-key (created)`);
  const keyPath = `${db}.snapshot-key`;
  assert.equal(statSync(keyPath).mode & 0o777, 0o600);
  const key = readFileSync(keyPath, 'utf8');
  assert.match(key, /^[0-9a-f]{64}\n$/);
  const put = await fetch(`${s1.url}/v1/models/m`, {
    method: 'PUT',
    headers: auth,
    body: JSON.stringify({
      policy: 'adaprivate-ts',
      options: { dim: 1, horizon: 100, epsilon: 1, batchSize: 2 },
    }),
  });
  assert.equal(put.status, 201);
  for (let i = 0; i < 3; i++) {
    const r = await fetch(`${s1.url}/v1/models/m/rank`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ arms: [{ id: 'a', features: [1] }] }),
    });
    const { eventId } = (await r.json()) as { eventId: string };
    const w = await fetch(`${s1.url}/v1/models/m/rewards`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ eventId, reward: 1 }),
    });
    assert.equal(w.status, 200);
  }
  await stop(first);
  // the same key file, unchanged, serves the model again with its ledger
  const second = serve(db);
  const s2 = await second.started;
  assert.ok(s2 !== null);
  assert.equal(s2.snapshotKey, keyPath);
  assert.equal(readFileSync(keyPath, 'utf8'), key);
  const status = await fetch(`${s2.url}/v1/models/m/ledger`, { headers: auth });
  assert.equal(status.status, 200);
  assert.match(JSON.stringify(await status.json()), /"releases":1/);
  await stop(second);
  // another key (here from the environment) does not load the stored snapshots: serve refuses to start
  const third = serve(db, [], { ADAPRIVATE_SNAPSHOT_KEY: 'x'.repeat(40) });
  assert.equal(await third.started, null);
  const e = await third.exited;
  assert.equal(e.code, 2); // a server that cannot load a stored model exits 2 with one line
  assert.match(
    e.stderr,
    /snapshot field 'mac' does not match the snapshot under this key: it was saved under another key/,
  );
  assert.equal(readFileSync(keyPath, 'utf8'), key); // the key file is not replaced
});

test('serve refuses a short snapshot key, a missing key file, and PostgreSQL without a key (exit 2)', async () => {
  const db = join(dir, 'b.db');
  const short = serve(db, [], { ADAPRIVATE_SNAPSHOT_KEY: 'too short' });
  assert.equal(await short.started, null);
  const e1 = await short.exited;
  assert.equal(e1.code, 2);
  assert.match(e1.stderr, /ADAPRIVATE_SNAPSHOT_KEY must be at least 32 characters; its value is not shown/);
  const missing = serve(db, ['--snapshot-key-file', join(dir, 'nope.key')]);
  assert.equal(await missing.started, null);
  const e2 = await missing.exited;
  assert.equal(e2.code, 2);
  assert.match(e2.stderr, /cannot read the snapshot key file .*nope\.key/);
  const pg = serve('postgres://u:p@127.0.0.1:1/x');
  assert.equal(await pg.started, null);
  const e3 = await pg.exited;
  assert.equal(e3.code, 2);
  assert.match(
    e3.stderr,
    /PostgreSQL --db, give the snapshot key with --snapshot-key-file or \$ADAPRIVATE_SNAPSHOT_KEY/,
  );
});

test('migrate snapshot: a 0.1.0 file becomes a signed one that loads with the key file', async () => {
  const file = join(dir, 'ts.json');
  const keyFile = join(dir, 'ts.key');
  copyFileSync(new URL('adaprivate-ts.snapshot.json', fixtures), file);
  // in-process (runCli): the command, not the program's start, is tested here
  const r = await runCli(['migrate', 'snapshot', file, '--key-file', keyFile]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /snapshot format 2 \(written by adaprivate 0\.1\.0\) -> 4, signed with the key in .*ts\.key \(created\)/,
  );
  assert.match(r.stdout, /the input was unsigned/);
  assert.equal(statSync(keyFile).mode & 0o777, 0o600);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const key = readFileSync(keyFile, 'utf8').trim();
  const p = loadPolicyFile(file, { key });
  assert.equal(p.roundsLearned, 47);
  assert.equal(p.privacy().releases, 4);
  // a wrong key file: refused, nothing written, the file unchanged
  const before = readFileSync(file, 'utf8');
  writeFileSync(join(dir, 'other.key'), `${'a'.repeat(64)}\n`, { mode: 0o600 });
  const bad = await runCli(['migrate', 'snapshot', file, '--key-file', join(dir, 'other.key')]);
  assert.equal(bad.status, 2);
  assert.match(
    bad.stderr,
    /field 'mac' does not match the snapshot under this key: it was saved under another key/,
  );
  assert.equal(readFileSync(file, 'utf8'), before);
  // rotation: verified under the previous key, signed under the new one
  const rot = await runCli([
    'migrate',
    'snapshot',
    file,
    '--key-file',
    join(dir, 'other.key'),
    '--previous-key-file',
    keyFile,
    '--json',
  ]);
  assert.equal(rot.status, 0, rot.stderr);
  assert.equal((JSON.parse(rot.stdout) as { from: number }).from, 4);
  assert.equal(loadPolicyFile(file, { key: 'a'.repeat(64) }).roundsLearned, 47);
});
