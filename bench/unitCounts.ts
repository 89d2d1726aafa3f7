/**
 * `node dist/bench/unitCounts.js [--units N] [--store-units S] [--json]`: memory and disk of user-level contribution
 * counts for N units (default 1,000,000; run it nice'd), and their expiry at an epoch boundary.
 *
 * - library: `MemoryUnitCounters` driven by the one rule (`admitContribution`): N units each offered
 *   one reward in epoch 0 (time, heap growth), then one unit in epoch 1 (`expireBefore` drops the N
 *   records of epoch 0: time, records left).
 * - store: a SQLite file with N decisions (setup, not timed), then N rewards of N distinct units
 *   through `SqliteStore.recordReward` with the unit write in the reward's transaction (group
 *   commit, as `serve` runs it): time, `unit_counts` rows and the file's bytes; then one reward in
 *   the next epoch deletes the N rows of epoch 0 in its transaction (time, rows left). Disk before
 *   and after the expiry: the file's bytes (after a WAL checkpoint), the bytes the unit-count table
 *   and its indexes occupy (SQLite's dbstat), and the free pages the DELETE left for the next
 *   epoch's rows to reuse (the file does not shrink without VACUUM; it stops growing). The process's
 *   resident memory is printed too (the store keeps no count in memory).
 * CPU time is printed beside wall time (process.cpuUsage).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { admitContribution, MemoryUnitCounters } from '../src/privacy/index.js';
import { float64ToBlob } from '../src/store/float64Blob.js';
import { SqliteStore } from '../src/store/index.js';
import { benchArgs } from './benchArgs.js';

const args = benchArgs(import.meta.url, { 'store-units': '', units: '1000000' }, ['json']);
const N = Number(args.units);
/** Units of the store part (default N; each is one reward transaction, ~10k/s on an idle core). */
const S = args['store-units'] !== '' ? Number(args['store-units']) : N;
const json = args.json;
const bounds = { contributionsPerRelease: 1, releasesPerEpoch: 10 };

function timed<T>(fn: () => T): { out: T; wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = fn();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { out, wall, cpu: (c.user + c.system) / 1e6 };
}
async function timedAsync<T>(fn: () => Promise<T>): Promise<{ out: T; wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { out, wall, cpu: (c.user + c.system) / 1e6 };
}

// library
globalThis.gc?.();
const heap0 = process.memoryUsage().heapUsed;
const counters = new MemoryUnitCounters();
const fill = timed(() => {
  for (let u = 0; u < N; u++) {
    const unit = `user-${u}`;
    const r = admitContribution(counters.get(unit), 0, 1 + (u % 300), bounds);
    if (r.next !== null) counters.set(unit, r.next);
  }
  return counters.size;
});
globalThis.gc?.();
const heapBytes = process.memoryUsage().heapUsed - heap0;
const expire = timed(() => {
  counters.expireBefore(1);
  const r = admitContribution(counters.get('late'), 1, 400, bounds);
  if (r.next !== null) counters.set('late', r.next);
  return counters.size;
});

// store
const dir = mkdtempSync(join(tmpdir(), 'adaprivate-unitbench-'));
const path = join(dir, 'units.db');
const setupStore = SqliteStore.open(path);
await setupStore.createModel({
  name: 'm',
  policy: 'adaprivate-ts',
  options: {},
  settings: {
    rewardWindowSeconds: 3600,
    defaultReward: null,
    duplicateRule: 'first',
    logRewards: false,
    logCandidates: true,
    probabilitySamples: 1,
    retainDecisionsDays: null,
  },
  createdAt: 0,
  snapshot: '{}',
});
await setupStore.close();
{
  const db = new Database(path);
  const ins = db.prepare(
    `INSERT INTO decisions (model, event_id, time, arm_ids, features, dim, chosen, chosen_features, probabilities, model_version)
     VALUES ('m', ?, 0, '["a"]', ?, 2, 0, ?, '[1]', 0)`,
  );
  const f = float64ToBlob(Float64Array.of(0.6, 0.8));
  db.transaction(() => {
    for (let u = 0; u <= S; u++) ins.run(`e${u}`, f, f);
  })();
  db.close();
}
const store = SqliteStore.open(path, { groupCommit: true });
const write = await timedAsync(async () => {
  const pending: Promise<unknown>[] = [];
  for (let u = 0; u < S; u++) {
    pending.push(
      store.recordReward(
        { model: 'm', eventId: `e${u}`, reward: 1, time: 0, source: 'given', logReward: false },
        null,
        {
          unit: `user-${u}`,
          count: { epoch: 0, release: 1 + Math.floor(u / 300), inRelease: 1, releases: 1, sampled: null },
          dropped: null,
          expireBefore: null,
          openEpoch: 0,
        },
      ),
    );
    if (pending.length >= 256) {
      await Promise.all(pending);
      pending.length = 0;
      await store.durable();
    }
  }
  await Promise.all(pending);
  await store.durable();
  return store.unitCountRows('m');
});
const rows = await write.out;
const bytesFull = statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);
/** The file after a checkpoint, the unit-count table's pages (dbstat) and the free pages. */
function disk(): { fileBytes: number; unitBytes: number; freeBytes: number } {
  const db = new Database(path);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const unitBytes = (
      db
        .prepare(
          "SELECT COALESCE(SUM(pgsize), 0) AS b FROM dbstat WHERE name IN ('unit_counts', 'unit_counts_epoch') OR name LIKE 'sqlite_autoindex_unit_counts%'",
        )
        .get() as { b: number }
    ).b;
    const freeBytes =
      (db.pragma('freelist_count', { simple: true }) as number) *
      (db.pragma('page_size', { simple: true }) as number);
    return { fileBytes: statSync(path).size, unitBytes, freeBytes };
  } finally {
    db.close();
  }
}
const rssFull = process.memoryUsage().rss;
await store.durable();
const full = disk(); // a second connection: checkpoints what the store committed
const expiry = await timedAsync(async () => {
  await store.recordReward(
    { model: 'm', eventId: `e${S}`, reward: 1, time: 0, source: 'given', logReward: false },
    null,
    {
      unit: 'late',
      count: { epoch: 1, release: 9999, inRelease: 1, releases: 1, sampled: null },
      dropped: null,
      expireBefore: 1,
      openEpoch: 1,
    },
  );
  await store.durable();
  return store.unitCountRows('m');
});
const rowsLeft = await expiry.out;
await store.close();
const afterExpiry = disk(); // the file as the expiry left it
rmSync(dir, { recursive: true, force: true });

const result = {
  units: N,
  library: {
    records: fill.out,
    heapBytes,
    bytesPerUnit: heapBytes / N,
    fill: { wallSeconds: fill.wall, cpuSeconds: fill.cpu },
    expiry: { recordsLeft: expire.out, wallSeconds: expire.wall, cpuSeconds: expire.cpu },
  },
  store: {
    units: S,
    rows,
    fileBytes: bytesFull,
    write: { wallSeconds: write.wall, cpuSeconds: write.cpu, rewardsPerSecond: S / write.wall },
    expiry: { rowsLeft, wallSeconds: expiry.wall, cpuSeconds: expiry.cpu },
    disk: { full, afterExpiry },
    rssBytes: rssFull,
  },
};
if (json) console.log(JSON.stringify(result));
else {
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  console.log(`units: ${N}`);
  console.log(
    `library: ${result.library.records} records, heap +${mb(heapBytes)} (${result.library.bytesPerUnit.toFixed(0)} B/unit), fill ${fill.wall.toFixed(2)} s wall / ${fill.cpu.toFixed(2)} s CPU; epoch boundary: ${expire.out} left after ${expire.wall.toFixed(3)} s wall / ${expire.cpu.toFixed(3)} s CPU`,
  );
  console.log(
    `store (SQLite): ${rows} rows, file ${mb(bytesFull)} (decisions included), ${S} rewards with their unit writes in ${write.wall.toFixed(1)} s wall / ${write.cpu.toFixed(1)} s CPU (${result.store.write.rewardsPerSecond.toFixed(0)}/s); epoch boundary: ${result.store.expiry.rowsLeft} rows left after ${expiry.wall.toFixed(2)} s wall / ${expiry.cpu.toFixed(2)} s CPU`,
  );
  console.log(
    `disk (checkpointed): file ${mb(full.fileBytes)} -> ${mb(afterExpiry.fileBytes)}; unit_counts + indexes ${mb(full.unitBytes)} -> ${mb(afterExpiry.unitBytes)}; free pages ${mb(full.freeBytes)} -> ${mb(afterExpiry.freeBytes)} (reused by the next epoch's rows); process RSS ${mb(rssFull)} after the fill`,
  );
}
