/**
 * `adaprivate serve` as a process: it survives the loss of its stdout/stderr readers (EPIPE) and
 * shuts down cleanly; one server per database file, with a clear error naming the holder and a
 * restart after a crash (SIGKILL) that is not blocked by the dead server's lock. Nothing here waits
 * on a timer: each step waits for an event (a line, an answer, an exit).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const KEY = 'serve-test-key-0123456789abcdefghijk';
const dir = mkdtempSync(join(tmpdir(), 'adaprivate-serve-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

interface Proc {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  /** The URL of the startup line, or null when the process exited before printing it. */
  readonly url: Promise<string | null>;
}

function serve(
  db: string,
  logLevel = 'info',
  extra: readonly string[] = [],
  env: Readonly<Record<string, string | undefined>> = { ADAPRIVATE_API_KEY: KEY },
): Proc {
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--db', db, '--port', '0', '--json', '--log-level', logLevel, ...extra],
    { env: { ...process.env, ADAPRIVATE_API_KEY: undefined, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  const url = new Promise<string | null>((resolve) => {
    // pino's own lines (level info) share stdout with the startup line: pick the one with a url
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (!l.startsWith('{')) return; // 'adaprivate serve: stopped'
      const j = JSON.parse(l) as { url?: string; msg?: string };
      if (j.url !== undefined && j.msg === undefined) resolve(j.url);
    });
    exited.then(() => resolve(null));
  });
  return { child, exited, url };
}

test('serve: stdout and stderr closed by the reader, then SIGTERM: no EPIPE crash, exit 0', async () => {
  const p = serve(join(dir, 'epipe.db'));
  const url = await p.url;
  assert.ok(url !== null, 'server started');
  p.child.stdout!.destroy();
  p.child.stderr!.destroy();
  // an error answer (logged by nobody at info) and a SIGTERM that writes to the closed stderr
  const res = await fetch(`${url}/v1/models/none`, { headers: { authorization: `Bearer ${KEY}` } });
  assert.equal(res.status, 404);
  p.child.kill('SIGTERM');
  const e = await p.exited;
  assert.equal(e.signal, null);
  assert.equal(e.code, 0, 'exit code after SIGTERM with closed output');
});

test('serve: one server per database file; the error names the holder; a SIGKILLed holder never blocks a restart', async () => {
  const db = join(dir, 'one.db');
  const first = serve(db, 'error');
  assert.ok((await first.url) !== null, 'first server started');
  const second = serve(db, 'error');
  const e2 = await second.exited;
  assert.equal(await second.url, null, 'the second server never listened');
  assert.equal(e2.code, 1, e2.stderr);
  assert.match(e2.stderr, /in use by another server/);
  assert.match(e2.stderr, new RegExp(`pid ${first.child.pid} `), e2.stderr);
  assert.equal(e2.stderr.trim().split('\n').length, 1, `one line: ${e2.stderr}`);

  first.child.kill('SIGKILL');
  assert.equal((await first.exited).signal, 'SIGKILL');
  const third = serve(db, 'error');
  const url = await third.url;
  assert.ok(url !== null, 'restart after a crash');
  const health = await fetch(`${url}/health`);
  assert.equal(health.status, 200);
  third.child.kill('SIGTERM');
  assert.equal((await third.exited).code, 0);
});

test('serve: --checkpoint takes background or auto; anything else is a usage error (exit 2) naming both', async () => {
  const bad = serve(join(dir, 'ck.db'), 'info', ['--checkpoint', 'never']);
  assert.equal(await bad.url, null);
  const e = await bad.exited;
  assert.equal(e.code, 2);
  assert.match(e.stderr, /--checkpoint must be background or auto\. Got "never"/);
  const ok = serve(join(dir, 'ck.db'), 'info', ['--checkpoint', 'auto']);
  const url = await ok.url;
  assert.ok(url !== null, 'serve --checkpoint auto starts');
  assert.equal((await fetch(`${url}/health`)).status, 200);
  ok.child.kill('SIGTERM');
  assert.equal((await ok.exited).code, 0);
});

test('serve: --max-batch sets the events per batch request (400 above it); 0 is a usage error', async () => {
  const bad = serve(join(dir, 'mb.db'), 'error', ['--max-batch', '0']);
  assert.equal(await bad.url, null);
  const e = await bad.exited;
  assert.equal(e.code, 2);
  assert.match(e.stderr, /--max-batch/);
  const ok = serve(join(dir, 'mb.db'), 'error', ['--max-batch', '2']);
  const url = await ok.url;
  assert.ok(url !== null, 'serve --max-batch 2 starts');
  const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const put = await fetch(`${url}/v1/models/mb`, {
    method: 'PUT',
    headers: auth,
    body: JSON.stringify({ policy: 'linucb', options: { dim: 1, horizon: 10, seed: 1 } }),
  });
  assert.equal(put.status, 201);
  const rank = (n: number) =>
    fetch(`${url}/v1/models/mb/rank/batch`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        events: Array.from({ length: n }, () => ({ arms: [{ id: 'a', features: [1] }] })),
      }),
    });
  assert.equal((await rank(2)).status, 200);
  const over = await rank(3);
  assert.equal(over.status, 400);
  assert.match(((await over.json()) as { message: string }).message, /more than 2 items/);
  ok.child.kill('SIGTERM');
  assert.equal((await ok.exited).code, 0);
});

test('serve: every file it writes is 0600; a refused second server (through a symlink, no key given) writes no key file; a generated key has 32 random bytes', async () => {
  const sub = join(dir, 'rest');
  mkdirSync(sub);
  const db = join(sub, 'a.db');
  const first = serve(db, 'error', [], {});
  after(() => first.child.kill('SIGKILL')); // a failed assertion must not leave it running
  const url = await first.url;
  assert.ok(url !== null, 'first server started');
  const key = readFileSync(`${db}.api-key`, 'utf8').trim();
  assert.ok(Buffer.from(key, 'base64url').length >= 32, `key of ${key.length} characters`);
  const put = await fetch(`${url}/v1/models/m`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ policy: 'linucb', options: { dim: 1, horizon: 10, seed: 1 } }),
  });
  assert.equal(put.status, 201);
  for (const f of readdirSync(sub)) {
    assert.equal((statSync(join(sub, f)).mode & 0o777).toString(8), '600', f);
  }
  assert.ok(existsSync(`${db}-wal`) && existsSync(`${db}.lock`));
  symlinkSync(db, join(dir, 'rest-link.db'));
  const before = readdirSync(dir).sort();
  const second = serve(join(dir, 'rest-link.db'), 'error', [], {});
  const e2 = await second.exited;
  assert.equal(await second.url, null);
  assert.equal(e2.code, 1, e2.stderr);
  assert.match(e2.stderr, /in use by another server/);
  assert.deepEqual(readdirSync(dir).sort(), before, 'no new file (no rest-link.db.api-key)');
  first.child.kill('SIGTERM');
  assert.equal((await first.exited).code, 0);
});

test('serve: the kill hook acts only under the test-only switch (warning at start); without it, ignored with a warning', async () => {
  const db = join(dir, 'hook.db');
  const p = serve(db, 'error', [], { ADAPRIVATE_API_KEY: KEY, ADAPRIVATE_TEST_KILL_IN_RELEASE: '1:1' });
  after(() => p.child.kill('SIGKILL'));
  const url = await p.url;
  assert.ok(url !== null, 'started');
  const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const put = await fetch(`${url}/v1/models/h`, {
    method: 'PUT',
    headers: auth,
    body: JSON.stringify({
      policy: 'adaprivate-ts',
      options: { dim: 1, horizon: 10, seed: 1, epsilon: 1, batchSize: 1 },
    }),
  });
  assert.equal(put.status, 201);
  const rank = await fetch(`${url}/v1/models/h/rank`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ eventId: 'e', arms: [{ id: 'a', features: [1] }] }),
  });
  assert.equal(rank.status, 200);
  const reward = await fetch(`${url}/v1/models/h/rewards`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ eventId: 'e', reward: 1 }),
  });
  assert.equal(reward.status, 200, 'a release with the hook variable set and no switch: the server lives');
  assert.equal(((await reward.json()) as { released: boolean }).released, true);
  p.child.kill('SIGTERM');
  const e = await p.exited;
  assert.equal(e.code, 0);
  assert.match(
    e.stderr,
    /ADAPRIVATE_TEST_KILL_IN_RELEASE is ignored \(test hooks act only with ADAPRIVATE_TEST_HOOKS=1/,
  );
  const on = serve(join(dir, 'hook2.db'), 'error', [], {
    ADAPRIVATE_API_KEY: KEY,
    ADAPRIVATE_TEST_KILL_IN_RELEASE: '0:1',
    ADAPRIVATE_TEST_HOOKS: '1',
  });
  after(() => on.child.kill('SIGKILL'));
  assert.ok((await on.url) !== null);
  on.child.kill('SIGTERM');
  const e2 = await on.exited;
  assert.match(e2.stderr, /WARNING: test hooks are on .*never in production/);
});
