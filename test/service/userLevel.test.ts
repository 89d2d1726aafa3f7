// User-level models in the decision service (one server, SQLite): units on rank and reward, the
// contribution bounds enforced with counts in the store, dropped rewards acknowledged and counted,
// epochs on the server's clock, a restart, and the bounds checked from the database afterwards.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { AdaPrivateClientError } from '../../src/client/index.js';
import { startTestServer } from './testServer.js';

const USER = {
  policy: 'adaprivate-ts',
  options: {
    dim: 2,
    horizon: 1000,
    epsilon: 1,
    batchSize: 3,
    seed: 7,
    privacyUnit: 'user',
    releasesPerEpoch: 2,
    epochDays: 30,
  },
};
const ARMS = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
];
const DAY = 86_400_000;

async function codeOf(p: Promise<unknown>): Promise<[number, string, string]> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof AdaPrivateClientError, String(e));
    return [e.status, e.code, e.message];
  }
  assert.fail('expected an error answer');
}

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-units-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('user-level model on one server', () => {
  test('c = 1 and m = 2: second reward per release and third release per epoch are dropped, counted, and never learned; a restart keeps the counts; the database shows no unit past its bounds', async () => {
    const db = join(dir, 'u.db');
    const a = await startTestServer({ db });
    let aOpen = true;
    after(async () => {
      if (aOpen) await a.close();
    });
    const c = a.client;
    await c.createModel('u', USER);
    const [status, code, message] = await codeOf(c.rank('u', { arms: ARMS }));
    assert.deepEqual([status, code], [400, 'unit_required']);
    assert.match(message, /privacyUnit 'user'/);
    const give = async (unit: string, reward = 1) => {
      const d = await c.rank('u', { unit, arms: ARMS });
      return c.reward('u', { eventId: d.eventId, reward });
    };
    // release 1: u1 (kept), u1 (dropped: c = 1), u2, u3 (completes the batch of 3 kept rewards)
    assert.equal((await give('u1')).dropped, undefined);
    const second = await give('u1', 0);
    assert.equal(second.status, 'recorded');
    assert.equal(second.dropped, 'perRelease');
    await give('u2');
    assert.equal((await give('u3')).released, true);
    // release 2: u1 takes part in its second release of the epoch
    await give('u1');
    await give('u2');
    assert.equal((await give('u4')).released, true);
    // release 3 would be u1's third of the epoch: dropped (m = 2)
    assert.equal((await give('u1')).dropped, 'perEpoch');
    let s = await c.status('u');
    assert.equal(s.privacy.unit, 'user');
    assert.deepEqual(s.privacy.dropped, { perRelease: 1, perEpoch: 1, total: 2 });
    assert.equal(s.rounds, 6, 'dropped rewards are not learned');
    assert.equal(s.modelVersion, 2);
    assert.equal(s.privacy.perEpoch?.compositions, 2);
    assert.ok((s.privacy.perEpoch?.epsilon ?? 9) <= 1 + 1e-9, 'per epoch within the target');
    assert.match(
      s.privacy.statement,
      /^user-level \(eps [0-9.]+, delta 1e-5\) per 30-day epoch, for users contributing at most 1 reward per release and 2 releases per epoch; cumulative over the 1 epoch with releases so far: .*; 2 rewards dropped by the bounds \(1 per release, 1 per epoch\)\. Protects all rewards of one unit; features, chosen arms and stored decisions are not protected\.$/,
    );
    // the rank's unit and the reward's must agree
    const d8 = await c.rank('u', { unit: 'u8', arms: ARMS });
    assert.deepEqual(
      (await codeOf(c.reward('u', { eventId: d8.eventId, reward: 1, unit: 'u9' }))).slice(0, 2),
      [409, 'unit_mismatch'],
    );
    // a new 30-day epoch: u1 is kept again, and the counts of the old epoch expire
    a.advance(31 * DAY);
    assert.equal((await give('u1')).dropped, undefined);
    aOpen = false;
    await a.close();

    // restart: u1's reward pending in the open release is replayed once, its count is in the database
    const b = await startTestServer({ db });
    b.advance(31 * DAY);
    try {
      const d = await b.client.rank('u', { unit: 'u1', arms: ARMS });
      assert.equal((await b.client.reward('u', { eventId: d.eventId, reward: 1 })).dropped, 'perRelease');
      const e = await b.client.rank('u', { unit: 'u5', arms: ARMS });
      assert.equal((await b.client.reward('u', { eventId: e.eventId, reward: 1 })).dropped, undefined);
      s = await b.client.status('u');
      assert.deepEqual(s.privacy.dropped, { perRelease: 2, perEpoch: 1, total: 3 });
      assert.equal(s.pendingRewards, 2);
      assert.equal(s.privacy.epoch?.current, Math.floor((Date.UTC(2026, 0, 1) + 31 * DAY) / (30 * DAY)));
      // the export carries each event's unit
      const lines = await b.client.exportDecisions('u');
      assert.ok(lines.every((l) => typeof l.unit === 'string'));
    } finally {
      await b.close();
    }

    // from the database: kept rewards per unit and release <= c, releases per unit and epoch <= m
    const file = new Database(db, { readonly: true });
    try {
      const perRelease = file
        .prepare(
          `SELECT u.unit, d.release, COUNT(*) AS n FROM decisions d JOIN decision_units u
           ON u.model = d.model AND u.event_id = d.event_id WHERE d.reward_state = 2 GROUP BY u.unit, d.release`,
        )
        .all() as { unit: string; release: number; n: number }[];
      assert.ok(perRelease.length > 0);
      for (const r of perRelease)
        assert.ok(r.n <= 1, `unit ${r.unit} has ${r.n} rewards in release ${r.release}`);
      const epoch0 = Math.floor(Date.UTC(2026, 0, 1) / (30 * DAY));
      const perEpoch = file
        .prepare(
          `SELECT u.unit, COUNT(DISTINCT d.release) AS n FROM decisions d JOIN decision_units u
           ON u.model = d.model AND u.event_id = d.event_id
           WHERE d.reward_state = 2 AND d.time < ? GROUP BY u.unit`,
        )
        .all((epoch0 + 1) * 30 * DAY) as { unit: string; n: number }[];
      for (const r of perEpoch)
        assert.ok(r.n <= 2, `unit ${r.unit} takes part in ${r.n} releases of epoch 0`);
      assert.equal(
        (file.prepare('SELECT COUNT(*) AS n FROM decisions WHERE reward_state = 3').get() as { n: number }).n,
        3,
        'the dropped rewards are marked on their decisions',
      );
      const pendingDropped = file
        .prepare(
          'SELECT COUNT(*) AS n FROM pending_rewards p JOIN decisions d ON d.model = p.model AND d.event_id = p.event_id WHERE d.reward_state = 3',
        )
        .get() as { n: number };
      assert.equal(pendingDropped.n, 0, 'a dropped reward never enters the raw statistics');
      const rows = file.prepare('SELECT unit, epoch FROM unit_counts ORDER BY unit').all() as {
        unit: string;
        epoch: number;
      }[];
      assert.deepEqual(
        rows.map((r) => r.unit),
        ['u1', 'u5'],
        'the counts of the old epoch expired at the first reward of the new one',
      );
    } finally {
      file.close();
    }
  });

  test("event-level models log the unit of the rank or of the reward; JDP-LinUCB refuses privacyUnit 'user' (epochRounds and sampled units are served: test/service/userLevelServed.test.ts)", async () => {
    const t = await startTestServer();
    try {
      await t.client.createModel('e', {
        policy: 'adaprivate-ts',
        options: { dim: 2, horizon: 100, epsilon: 1, seed: 1 },
      });
      const r1 = await t.client.rank('e', { unit: 'alice', arms: ARMS });
      await t.client.reward('e', { eventId: r1.eventId, reward: 1 });
      const r2 = await t.client.rank('e', { arms: ARMS });
      await t.client.reward('e', { eventId: r2.eventId, reward: 0, unit: 'bob' });
      await t.client.rank('e', { arms: ARMS });
      const lines = await t.client.exportDecisions('e');
      assert.deepEqual(
        lines.map((l) => l.unit),
        ['alice', 'bob', undefined],
      );
      const st = await t.client.status('e');
      assert.equal(st.privacy.unit, 'event');
      assert.match(
        st.privacy.statement,
        /^event-level: protects one reward; features, chosen arms and stored decisions are not protected/,
      );
      const jdp = await codeOf(
        t.client.createModel('jdp', {
          policy: 'jdp-linucb',
          options: { dim: 2, horizon: 10, epsilon: 1, privacyUnit: 'user', releasesPerEpoch: 2 },
        }),
      );
      assert.match(jdp[2], /privacyUnit 'user' is not supported/);
    } finally {
      await t.close();
    }
  });
});
