/**
 * Data at rest of the SQLite store (issue 26): the files are created 0600; the raw rewards of a
 * release leave the database and WAL files (secure_delete and a TRUNCATE checkpoint after the
 * release); one server per database file whatever the path it is opened by (symbolic link, hard
 * link, `..`), refused before anything is written.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteStore } from '../../src/store/index.js';
import { connection } from '../support/sqliteConnection.js';
import { createSumModel, givenReward, oneArmDecision, sumRelease } from '../support/storeFixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-rest-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('SqliteStore: the database, WAL, shared-memory and lock files are created 0600', async () => {
  const old = process.umask(0o022);
  try {
    const path = join(dir, 'modes.db');
    const s = SqliteStore.open(path, { lock: true, groupCommit: true, checkpoint: 'background' });
    await createSumModel(s, 'm', 2);
    await s.durable();
    for (const f of [path, `${path}-wal`, `${path}-shm`, `${path}.lock`]) {
      assert.ok(existsSync(f), f);
      assert.equal((statSync(f).mode & 0o777).toString(8), '600', f);
    }
    await s.close();
  } finally {
    process.umask(old);
  }
});

/** The 8 bytes SQLite stores for a REAL (big-endian IEEE 754). */
function realBytes(x: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(x);
  return b;
}

/** The files of database `path` that hold `needle`. */
function filesHolding(path: string, needle: Buffer): string[] {
  return [path, `${path}-wal`, `${path}-shm`].filter(
    (f) => existsSync(f) && readFileSync(f).includes(needle),
  );
}

for (const checkpoint of ['auto', 'background'] as const) {
  test(`SqliteStore (${checkpoint} checkpoints): a released raw reward leaves the database and WAL files`, async () => {
    const path = join(dir, `scrub-${checkpoint}.db`);
    const s = SqliteStore.open(path, { lock: true, groupCommit: true, checkpoint });
    await createSumModel(s, 'm', 3);
    const reward = 0.7316840251937415; // distinctive: no other value in the file has these bytes
    const needle = realBytes(reward);
    for (const [i, r] of [reward, 0.25].entries()) {
      await s.recordReward(
        { model: 'm', eventId: `e${i}`, reward: r, time: 11, source: 'given', logReward: false },
        null,
      );
    }
    await s.durable();
    assert.notDeepEqual(filesHolding(path, needle), [], 'the pending reward is on disk before its release');
    const state = (await s.loadModelState('m'))!;
    await s.recordReward(
      { model: 'm', eventId: 'e2', reward: 0.5, time: 12, source: 'given', logReward: false },
      sumRelease({
        ...state,
        pending: [...state.pending, { eventId: 'e2', reward: 0.5, features: new Float64Array([1]) }],
      }),
    );
    await s.durable();
    await s.scrubbed();
    assert.deepEqual(filesHolding(path, needle), [], 'released raw reward still on disk');
    assert.equal((await s.loadModelState('m'))!.pending.length, 0);
    await s.close();
  });
}

/** The files this process has open whose name is an SQLite temporary file's (Linux: /proc/self/fd). */
function openTempFiles(): { fd: string; target: string }[] {
  const out: { fd: string; target: string }[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.includes('etilqs_')) out.push({ fd, target });
    } catch {
      // closed since it was listed
    }
  }
  return out;
}

test('SqliteStore: a release inside a large group keeps its statement journal in memory, never in a temporary file with raw rewards', async () => {
  // a release's UPDATE (many rows, inside the group's transaction) copies the pages it changes, raw
  // pending rewards included, to a statement journal; SQLite spills that journal past 64 KB to an
  // unlinked file in /var/tmp, which secure_delete and the WAL scrub never reach (measured before
  // temp_store = MEMORY: a 164 KB file holding the rewards, open until the group's commit)
  const path = join(dir, 'journal.db');
  const s = SqliteStore.open(path, { groupCommit: true, groupCommitMaxWrites: 100_000 });
  try {
    assert.equal(connection(s).pragma('temp_store', { simple: true }), 2, 'temp_store is MEMORY');
    const n = 1500;
    await createSumModel(s, 'm', n);
    const state = (await s.loadModelState('m'))!;
    const raw = 0.7316840251937415; // distinctive bytes
    const pending = [];
    const writes = [];
    // one group: every reward, then the release, without awaiting (so none is committed yet)
    for (let i = 0; i < n - 1; i++) {
      pending.push({ eventId: `e${i}`, reward: raw, features: new Float64Array([1]) });
      writes.push(s.recordReward(givenReward('m', `e${i}`, raw), null));
    }
    const last = { eventId: `e${n - 1}`, reward: 0.5, features: new Float64Array([1]) };
    writes.push(
      s.recordReward(
        givenReward('m', last.eventId, 0.5),
        sumRelease({ ...state, pending: [...pending, last] }),
      ),
    );
    if (existsSync('/proc/self/fd')) {
      const open = openTempFiles();
      const holding = open.filter((f) => readFileSync(`/proc/self/fd/${f.fd}`).includes(realBytes(raw)));
      assert.deepEqual(holding, [], 'a temporary file holds raw rewards');
      assert.deepEqual(open, [], 'a temporary file is open');
    }
    assert.deepEqual(new Set(await Promise.all(writes)), new Set(['recorded']));
    assert.equal((await s.loadModelState('m'))!.pending.length, 0);
  } finally {
    await s.close();
  }
});

test('SqliteStore (background checkpoints): writes made while a scrub holds the write lock are applied in call order and are durable', async () => {
  const path = join(dir, 'held.db');
  const s = SqliteStore.open(path, { lock: true, groupCommit: true, checkpoint: 'background' });
  await createSumModel(s, 'm', 1);
  const state = (await s.loadModelState('m'))!;
  await s.recordReward(
    { model: 'm', eventId: 'e0', reward: 0.5, time: 11, source: 'given', logReward: false },
    sumRelease({
      ...state,
      pending: [...state.pending, { eventId: 'e0', reward: 0.5, features: new Float64Array([1]) }],
    }),
  );
  await s.durable();
  // the scrub's TRUNCATE holds new writes until its report: keep writing, one event-loop turn apart
  let scrubbed = false;
  const scrub = s.scrubbed().then(() => {
    scrubbed = true;
  });
  const inserts: Promise<boolean>[] = [];
  for (let i = 1; !scrubbed || i <= 20; i++) {
    inserts.push(s.insertDecision(oneArmDecision('m', `e${i}`, 10 + i)));
    await new Promise((r) => setImmediate(r));
  }
  await scrub;
  assert.deepEqual(await Promise.all(inserts), Array(inserts.length).fill(true));
  await s.durable();
  const rows = await s.exportDecisions('m', { limit: 10_000 });
  assert.deepEqual(
    rows.map((r) => r.eventId),
    Array.from({ length: inserts.length + 1 }, (_, i) => `e${i}`),
    'stored in call order',
  );
  await s.close();
  const again = SqliteStore.open(path, { lock: true });
  assert.equal((await again.exportDecisions('m', { limit: 10_000 })).length, inserts.length + 1);
  await again.close();
});

test('SqliteStore: scrubIntervalMs must be a non-negative integer', () => {
  assert.throws(() => SqliteStore.open(':memory:', { scrubIntervalMs: -1 }), /scrubIntervalMs must be/);
  assert.throws(() => SqliteStore.open(':memory:', { scrubIntervalMs: 1.5 }), /scrubIntervalMs must be/);
});

test('SqliteStore lock: a second server through a symbolic link, a hard link or a path with .. is refused before it writes anything', async () => {
  const sub = join(dir, 'lk');
  mkdirSync(join(sub, 'inner'), { recursive: true });
  const path = join(sub, 'a.db');
  const a = SqliteStore.open(path, { lock: true, groupCommit: true });
  await createSumModel(a, 'm', 1);
  await a.durable();
  symlinkSync(path, join(dir, 'link.db'));
  const before = () =>
    readdirSync(sub)
      .filter((f) => f !== 'inner')
      .map((f) => [f, statSync(join(sub, f)).size, statSync(join(sub, f)).mtimeMs] as const);
  const snapshot = before();
  for (const other of [join(dir, 'link.db'), join(sub, 'inner', '..', 'a.db')]) {
    assert.throws(() => SqliteStore.open(other, { lock: true }), /is in use by another server \(pid \d+/);
  }
  assert.deepEqual(before(), snapshot, 'a refused server wrote nothing');
  linkSync(path, join(sub, 'hard.db'));
  assert.throws(() => SqliteStore.open(join(sub, 'hard.db'), { lock: true }), /has 2 hard links/);
  assert.throws(() => SqliteStore.open(path, { lock: true }), /has 2 hard links|in use/);
  rmSync(join(sub, 'hard.db'));
  await a.close();
  const b = SqliteStore.open(join(dir, 'link.db'), { lock: true });
  await b.ping();
  await b.close();
});
