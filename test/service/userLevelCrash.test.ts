/**
 * The crash test of a user-level model: `adaprivate serve` as a child process, clients (single and
 * batched) send decisions and rewards of a few units while the test SIGKILLs the server at
 * seeded-random points (and, in some lives, the server kills itself inside a release transaction),
 * restarts it on the same database, and finally checks from the database that no unit ever passed
 * its bounds: at most c = 1 kept reward per unit and release (released or pending), at most m = 3
 * releases per unit (the lifetime epoch), dropped rewards never pending and counted once. Nothing
 * waits on a timer: each step waits for an event (a line on stdout, an answer, an exit).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { AdaPrivateClient } from '../../src/client/index.js';
import { createRng } from '../../src/random/index.js';
import { startServeChild } from '../support/serveChild.js';

const KEY = 'crash-test-key-0123456789abcdefghijklmn';
const LIVES = 6;
const M = 3;
const UNITS = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6'];
const ARMS = [
  { id: 'a', features: [0.5, 0.1, 0.2] },
  { id: 'b', features: [0.1, 0.6, 0.1] },
];

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-unit-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('user-level crash test: through SIGKILLs (inside releases too), no unit passes c per release or m releases', async () => {
  const db = join(dir, 'crash.db');
  const rng = createRng(20261202, 'unit-crash-test');
  let eventNo = 0;
  let kills = 0;
  let droppedAcked = 0;
  for (let life = 0; life < LIVES; life++) {
    const mode = life % 3 === 1 ? `1:${life + 1}` : life % 3 === 2 ? `0.5:${life + 1}` : '';
    const s = await startServeChild(db, KEY, mode);
    if (s.url === null) {
      const e = await s.exited;
      throw new Error(`server exited before listening: ${e.code} ${e.signal} ${e.stderr}`);
    }
    const client = new AdaPrivateClient({ baseUrl: s.url, apiKey: KEY });
    if (life === 0) {
      await client.createModel('m', {
        policy: 'adaprivate-ts',
        options: {
          dim: 3,
          horizon: 1_000_000,
          epsilon: 1,
          batchSize: 3,
          privacyUnit: 'user',
          releasesPerEpoch: M,
        },
        probabilitySamples: 8,
      });
    }
    // a life whose server kills itself in its next release ends there; but once every unit has used
    // its m releases all rewards are dropped and no release comes, so such a life is also capped (the
    // test then kills the server itself)
    const target = mode.startsWith('1:') ? 300 : 2 + rng.integer(8);
    let acked = 0;
    let dead = false;
    s.exited.then(() => {
      dead = true;
    });
    const unit = () => UNITS[rng.integer(UNITS.length)]!;
    const worker = async (w: number) => {
      while (!dead && acked < target) {
        const eventId = `e${eventNo++}-w${w}`;
        try {
          await client.rank('m', { eventId, unit: unit(), arms: ARMS });
          const r = await client.reward('m', { eventId, reward: rng.integer(5) / 4 });
          if (r.dropped !== undefined) droppedAcked++;
        } catch {
          return;
        }
        acked++;
      }
    };
    const batchWorker = async () => {
      while (!dead && acked < target) {
        const ids = Array.from({ length: 2 + rng.integer(3) }, () => `e${eventNo++}-b`);
        try {
          await client.rankBatch(
            'm',
            ids.map((eventId) => ({ eventId, unit: unit(), arms: ARMS })),
          );
          const res = await client.rewardBatch(
            'm',
            ids.map((eventId) => ({ eventId, reward: 1 })),
          );
          for (const x of res) {
            assert.ok(x.ok, `life ${life}: ${x.ok ? '' : x.code}`);
            if (x.dropped !== undefined) droppedAcked++;
            acked++;
          }
        } catch (e) {
          if (e instanceof assert.AssertionError) throw e;
          return;
        }
      }
    };
    await Promise.all([worker(0), worker(1), batchWorker()]);
    if (!dead) s.child.kill('SIGKILL');
    const e = await s.exited;
    assert.equal(e.signal, 'SIGKILL', `life ${life}: ${e.stderr}`);
    kills++;
  }
  assert.equal(kills, LIVES);
  assert.ok(droppedAcked > 0, 'the bounds were reached');

  const sql = new Database(db, { readonly: true });
  try {
    const rows = sql
      .prepare(
        `SELECT u.unit, d.event_id, d.reward_state, d.release FROM decisions d
         JOIN decision_units u ON u.model = d.model AND u.event_id = d.event_id WHERE d.model = 'm'`,
      )
      .all() as { unit: string; event_id: string; reward_state: number; release: number | null }[];
    const pending = new Set(
      (
        sql.prepare("SELECT event_id FROM pending_rewards WHERE model = 'm'").all() as { event_id: string }[]
      ).map((r) => r.event_id),
    );
    const perRelease = new Map<string, number>();
    const releases = new Map<string, Set<string>>();
    let dropped = 0;
    for (const r of rows) {
      if (r.reward_state === 3) {
        dropped++;
        assert.ok(!pending.has(r.event_id), `dropped ${r.event_id} is not pending`);
        continue;
      }
      if (r.reward_state !== 1 && r.reward_state !== 2) continue;
      // a pending reward belongs to the open release
      const rel = r.reward_state === 2 ? String(r.release) : 'open';
      assert.equal(r.reward_state === 1, pending.has(r.event_id), `${r.event_id} pending iff state pending`);
      const k = `${r.unit}|${rel}`;
      perRelease.set(k, (perRelease.get(k) ?? 0) + 1);
      const set = releases.get(r.unit) ?? new Set<string>();
      set.add(rel);
      releases.set(r.unit, set);
    }
    for (const [k, n] of perRelease) assert.ok(n <= 1, `${k}: ${n} kept rewards in one release (c = 1)`);
    for (const [u, set] of releases)
      assert.ok(set.size <= M, `${u} takes part in ${set.size} releases (m = ${M})`);
    const totals = sql
      .prepare("SELECT dropped_release + dropped_epoch AS n FROM unit_totals WHERE model = 'm'")
      .get() as {
      n: number;
    };
    assert.equal(totals.n, dropped, 'every dropped reward counted once');
    assert.ok(dropped >= droppedAcked, 'every acknowledged drop is in the database');
    const counts = sql.prepare("SELECT unit, releases FROM unit_counts WHERE model = 'm'").all() as {
      unit: string;
      releases: number;
    }[];
    for (const c of counts) {
      assert.ok(c.releases <= M);
      assert.equal(
        c.releases,
        releases.get(c.unit)?.size ?? 0,
        `${c.unit}: stored count = releases in the database`,
      );
    }
  } finally {
    sql.close();
  }
});
