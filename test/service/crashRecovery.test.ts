/**
 * The crash test: `adaprivate serve` as a child process; clients send decisions and rewards while
 * the test SIGKILLs the server at seeded-random points (and, in some lives, the server kills itself
 * inside a release transaction through its test hook), restarts it on the same database, and checks
 * that every acknowledged reward (sent alone or in a batch) is counted exactly once, no batch is released twice, the ledger
 * agrees with the batches released, and the model keeps serving. Nothing here waits on a timer: each
 * step waits for an event (a line on stdout, an answer, an exit).
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { AdaPrivateClient } from '../../src/client/index.js';
import { createRng } from '../../src/random/index.js';
import { type ServeExit, startServeChild } from '../support/serveChild.js';

const KEY = 'crash-test-key-0123456789abcdefghijk';
const BATCH = 4;
const LIVES = 9;
const ARMS = [
  { id: 'a', features: [0.5, 0.1, 0.2] },
  { id: 'b', features: [0.1, 0.6, 0.1] },
  { id: 'c', features: [0.2, 0.2, 0.7] },
];

interface Life {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<ServeExit>;
}

async function start(db: string, killInRelease: string): Promise<Life> {
  const s = await startServeChild(db, KEY, killInRelease);
  if (s.url === null) {
    const e = await s.exited;
    throw new Error(`server exited before listening: ${e.code} ${e.signal} ${e.stderr}`);
  }
  return { child: s.child, url: s.url, exited: s.exited };
}

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('crash test: SIGKILL at random points and inside releases; every acknowledged reward counted once', async (t) => {
  const db = join(dir, 'crash.db');
  const rng = createRng(20261201, 'crash-test');
  const acked = new Map<string, number>(); // eventId -> reward value acknowledged
  const sent = new Map<string, number>(); // every reward sent (acknowledged or not)
  const unrewarded: string[] = []; // acknowledged decisions whose reward was not sent yet
  let kills = 0;
  let releaseKills = 0;
  let eventNo = 0;
  let batchAcked = 0;

  for (let life = 0; life < LIVES; life++) {
    const mode = life % 3 === 1 ? `1:${life + 1}` : life % 3 === 2 ? `0.5:${life + 1}` : '';
    const srv = await start(db, mode);
    const client = new AdaPrivateClient({ baseUrl: srv.url, apiKey: KEY });
    if (life === 0) {
      await client.createModel('m', {
        policy: 'adaprivate-ts',
        options: { dim: 3, horizon: 1_000_000, epsilon: 1, batchSize: BATCH },
        logRewards: true,
        probabilitySamples: 16,
      });
    }
    // lives with the hook at probability 1 run until the first release kills the server
    const target = mode.startsWith('1:') ? Number.POSITIVE_INFINITY : 1 + rng.integer(6);
    let ackedThisLife = 0;
    let dead = false;
    srv.exited.then(() => {
      dead = true;
    });
    const worker = async (w: number) => {
      while (!dead && ackedThisLife < target) {
        let eventId: string;
        // now and then, the reward of a decision made in an earlier life
        if (unrewarded.length > 0 && rng.uniform() < 0.3) eventId = unrewarded.shift()!;
        else {
          eventId = `e${eventNo++}-w${w}`;
          try {
            await client.rank('m', { eventId, arms: ARMS });
          } catch {
            return; // the server died: this decision may or may not be stored; its reward is never sent
          }
          if (rng.uniform() < 0.2) {
            unrewarded.push(eventId);
            continue;
          }
        }
        const reward = rng.integer(5) / 4;
        sent.set(eventId, reward);
        try {
          await client.reward('m', { eventId, reward });
        } catch {
          return;
        }
        acked.set(eventId, reward);
        ackedThisLife++;
      }
    };
    // a fourth client sends its events in batches (rank/batch, then rewards/batch): an event is
    // acknowledged when its result in an answer is ok
    const batchWorker = async () => {
      while (!dead && ackedThisLife < target) {
        const ids = Array.from({ length: 2 + rng.integer(3) }, () => `e${eventNo++}-b`);
        let ranks: Awaited<ReturnType<typeof client.rankBatch>>;
        try {
          ranks = await client.rankBatch(
            'm',
            ids.map((eventId) => ({ eventId, arms: ARMS })),
          );
        } catch {
          return; // the server died: these decisions may or may not be stored; no reward is sent
        }
        assert.deepEqual(
          ranks.map((r) => r.ok),
          ids.map(() => true),
          `life ${life}: every event of a rank batch decided`,
        );
        const rewards = ids.map((eventId) => ({ eventId, reward: rng.integer(5) / 4 }));
        for (const r of rewards) sent.set(r.eventId, r.reward);
        let res: Awaited<ReturnType<typeof client.rewardBatch>>;
        try {
          res = await client.rewardBatch('m', rewards);
        } catch {
          return;
        }
        for (let i = 0; i < res.length; i++) {
          const x = res[i]!;
          assert.ok(x.ok, `life ${life}: batch reward ${rewards[i]!.eventId}: ${x.ok ? '' : x.code}`);
          acked.set(rewards[i]!.eventId, rewards[i]!.reward);
          ackedThisLife++;
          batchAcked++;
        }
      }
    };
    await Promise.all([worker(0), worker(1), worker(2), batchWorker()]);
    if (!dead) srv.child.kill('SIGKILL');
    const e = await srv.exited;
    assert.equal(e.signal, 'SIGKILL', `life ${life}: ${e.stderr}`);
    kills++;
    if (e.stderr.includes('SIGKILL inside a release transaction')) releaseKills++;
  }

  // a last life without the hook: the model keeps serving
  const srv = await start(db, '');
  const client = new AdaPrivateClient({ baseUrl: srv.url, apiKey: KEY });
  const d = await client.rank('m', { eventId: 'final', arms: ARMS });
  sent.set('final', 1);
  await client.reward('m', { eventId: d.eventId, reward: 1 });
  acked.set('final', 1);
  const status = await client.status('m');
  const ledger = await client.ledger('m');
  srv.child.kill('SIGTERM');
  const last = await srv.exited;
  assert.equal(last.code, 0, `graceful exit: ${last.stderr}`);

  assert.equal(kills, LIVES, `kills: ${kills}`);
  assert.ok(releaseKills >= 3, `kills inside a release transaction: ${releaseKills}`);

  const sql = new Database(db, { readonly: true });
  try {
    const decisions = sql
      .prepare("SELECT event_id, reward_state, reward, release FROM decisions WHERE model = 'm'")
      .all() as { event_id: string; reward_state: number; reward: number | null; release: number | null }[];
    const pendingRows = sql.prepare("SELECT event_id FROM pending_rewards WHERE model = 'm'").all() as {
      event_id: string;
    }[];
    const ledgerRows = sql
      .prepare("SELECT version, rewards FROM ledger WHERE model = 'm' ORDER BY version")
      .all() as {
      version: number;
      rewards: number;
    }[];
    const byEvent = new Map(decisions.map((r) => [r.event_id, r]));
    const pendingCount = new Map<string, number>();
    for (const p of pendingRows) pendingCount.set(p.event_id, (pendingCount.get(p.event_id) ?? 0) + 1);

    // every acknowledged reward: recorded with the value sent, in exactly one place
    for (const [eventId, reward] of acked) {
      const r = byEvent.get(eventId);
      assert.ok(r !== undefined, `acknowledged ${eventId} has its decision`);
      assert.equal(r.reward, reward, `${eventId}: the value acknowledged`);
      const inPending = pendingCount.get(eventId) ?? 0;
      if (r.reward_state === 1) assert.ok(inPending === 1 && r.release === null, `${eventId} pending once`);
      else {
        assert.equal(r.reward_state, 2, `${eventId} released or pending`);
        assert.ok(inPending === 0 && r.release !== null, `${eventId} released once, not also pending`);
      }
    }
    // nothing recorded that was never sent; each pending row is one pending decision
    const recorded = decisions.filter((r) => r.reward_state !== 0);
    for (const r of recorded)
      assert.equal(sent.get(r.event_id), r.reward, `${r.event_id} was sent with this value`);
    for (const [eventId, n] of pendingCount) {
      assert.equal(n, 1, `${eventId} pending once`);
      assert.equal(byEvent.get(eventId)?.reward_state, 1);
    }
    // no batch released twice: versions 1..V, each exactly one batch of B rewards, each reward in one
    const V = ledgerRows.length;
    assert.deepEqual(
      ledgerRows.map((r) => r.version),
      Array.from({ length: V }, (_, i) => i + 1),
    );
    for (const row of ledgerRows) {
      assert.equal(row.rewards, BATCH, `release ${row.version} consumed one batch`);
      assert.equal(recorded.filter((r) => r.release === row.version).length, BATCH);
    }
    assert.equal(recorded.length, V * BATCH + pendingRows.length);
    assert.ok(V >= 4, `releases: ${V}`);
    assert.ok(batchAcked >= 4, `rewards acknowledged in batches: ${batchAcked}`);
    t.diagnostic(
      `${kills} SIGKILLs (${releaseKills} inside release transactions), ${acked.size} acknowledged rewards (${batchAcked} in batches), ${V} releases of ${BATCH}, ${pendingRows.length} pending`,
    );
    // the policy's own ledger (restored from the last snapshot) and the status agree with the table
    assert.equal(status.batchesReleased, V);
    assert.equal(status.privacy.releases, V);
    assert.equal(status.rounds, recorded.length);
    assert.equal(status.pendingRewards, pendingRows.length);
    assert.ok(
      Math.abs((status.privacy.epsilon ?? Number.NaN) - 1) < 1e-6,
      `epsilon ${status.privacy.epsilon}: parallel composition`,
    );
    assert.equal(ledger.releases.length, V);
    assert.deepEqual(
      ledger.releases.map((r) => r.rounds),
      ledger.releases.map((r) => r.version * BATCH),
    );
  } finally {
    sql.close();
  }
});
