/**
 * The user-level service assertions, written once and run on both engines
 * (test/service/userLevel.test.ts: one server on SQLite; userLevel.postgres.test.ts: replicas on
 * PostgreSQL): units on rank and reward, the contribution bounds (c = 1, m = 2), dropped rewards
 * acknowledged and counted, epochs on the server's clock with a release closed at an epoch change, a
 * restart, and the bounds checked from the database afterwards.
 */
import assert from 'node:assert/strict';
import { AdaPrivateClientError } from '../../src/client/index.js';
import type { ServerOptions } from '../../src/service/index.js';
import { startTestServer } from './testServer.js';

/** One database of an engine, as the scenario needs it. */
export interface EngineDb {
  /** Options of a test server on this database (a new store each call: a restart). */
  server(): Promise<Partial<ServerOptions>>;
  /** Rows of a read-only query with `$1, $2, ...` parameters. */
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export const USER = {
  policy: 'adaprivate-ts' as const,
  options: {
    dim: 2,
    horizon: 1000,
    epsilon: 1,
    batchSize: 3,
    seed: 7,
    privacyUnit: 'user' as const,
    releasesPerEpoch: 2,
    epochDays: 30,
  },
};
export const ARMS = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
];
export const DAY = 86_400_000;

export async function codeOf(p: Promise<unknown>): Promise<[number, string, string]> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof AdaPrivateClientError, String(e));
    return [e.status, e.code, e.message];
  }
  assert.fail('expected an error answer');
}

/** Kept rewards per (unit, release) and releases per (unit, epoch of the decision), from the tables. */
export async function boundsFromDb(
  db: EngineDb,
  model: string,
  epochMs: number,
): Promise<{ perRelease: number; perEpoch: number; released: number }> {
  const perRelease = await db.all<{ unit: string; release: number; n: number | string }>(
    `SELECT u.unit, d.release, COUNT(*) AS n FROM decisions d JOIN decision_units u
     ON u.model = d.model AND u.event_id = d.event_id
     WHERE d.model = $1 AND d.reward_state = 2 GROUP BY u.unit, d.release`,
    [model],
  );
  const perEpoch = await db.all<{ unit: string; epoch: number | string; n: number | string }>(
    `SELECT u.unit, (d.time / $2) AS epoch, COUNT(DISTINCT d.release) AS n FROM decisions d JOIN decision_units u
     ON u.model = d.model AND u.event_id = d.event_id
     WHERE d.model = $1 AND d.reward_state = 2 GROUP BY u.unit, (d.time / $2)`,
    [model, epochMs],
  );
  return {
    perRelease: Math.max(0, ...perRelease.map((r) => Number(r.n))),
    perEpoch: Math.max(0, ...perEpoch.map((r) => Number(r.n))),
    released: perRelease.reduce((a, r) => a + Number(r.n), 0),
  };
}

/**
 * c = 1 and m = 2: the second reward of a unit in one release and its third release of the epoch
 * are dropped, counted and never learned; a new epoch admits the unit again; a restart keeps the
 * counts; a reward of a later epoch closes the partial release of the earlier one; the database
 * shows no unit past its bounds.
 */
export async function userLevelScenario(db: EngineDb): Promise<void> {
  const a = await startTestServer(await db.server());
  let aOpen = true;
  try {
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
    const s = await c.status('u');
    assert.equal(s.privacy.unit, 'user');
    assert.deepEqual(s.privacy.dropped, { perRelease: 1, perEpoch: 1, total: 2 });
    assert.equal(s.rounds, 6, 'dropped rewards are not learned');
    assert.equal(s.modelVersion, 2);
    assert.equal(s.pendingRewards, 0);
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
  } finally {
    if (aOpen) await a.close();
  }

  // restart: u1's reward pending in the open release counts (its count is in the database)
  const b = await startTestServer(await db.server());
  b.advance(31 * DAY);
  try {
    const give = async (unit: string) => {
      const d = await b.client.rank('u', { unit, arms: ARMS });
      return b.client.reward('u', { eventId: d.eventId, reward: 1 });
    };
    assert.equal((await give('u1')).dropped, 'perRelease');
    assert.equal((await give('u5')).dropped, undefined);
    let s = await b.client.status('u');
    assert.deepEqual(s.privacy.dropped, { perRelease: 2, perEpoch: 1, total: 3 });
    assert.equal(s.pendingRewards, 2);
    const epoch1 = Math.floor((Date.UTC(2026, 0, 1) + 31 * DAY) / (30 * DAY));
    assert.equal(s.privacy.epoch?.current, epoch1);
    // the export carries each event's unit
    const lines = await b.client.exportDecisions('u');
    assert.ok(lines.every((l) => typeof l.unit === 'string'));
    // the next epoch: its first reward closes the partial release (2 rewards) of the epoch before
    b.advance(30 * DAY);
    const r = await give('u6');
    assert.equal(r.dropped, undefined);
    assert.equal(r.released, true, 'the partial release of the old epoch is released');
    s = await b.client.status('u');
    assert.equal(s.modelVersion, 3);
    assert.equal(s.pendingRewards, 1);
    assert.equal(s.privacy.epoch?.current, epoch1 + 1);
    assert.equal(s.privacy.epoch?.withReleases, 2);
    const ledger = await b.client.ledger('u');
    assert.deepEqual(
      ledger.releases.map((l) => l.rewards),
      [3, 3, 2],
      'each release holds the rewards of one epoch',
    );
  } finally {
    await b.close();
  }

  // restart again: u6 is pending once (not also in the snapshot of the release before it), so two
  // more rewards complete the batch of 3
  const c = await startTestServer(await db.server());
  c.advance(61 * DAY);
  try {
    const give = async (unit: string) => {
      const d = await c.client.rank('u', { unit, arms: ARMS });
      return c.client.reward('u', { eventId: d.eventId, reward: 1 });
    };
    assert.equal((await give('u7')).released, false, 'u6 is learned once');
    assert.equal((await give('u8')).released, true);
    assert.deepEqual(
      (await c.client.ledger('u')).releases.map((l) => l.rewards),
      [3, 3, 2, 3],
    );
  } finally {
    await c.close();
  }

  // from the database: kept rewards per unit and release <= c, releases per unit and epoch <= m
  const bounds = await boundsFromDb(db, 'u', 30 * DAY);
  assert.equal(bounds.released, 11);
  assert.equal(bounds.perRelease, 1, 'no unit has 2 rewards in one release');
  assert.equal(bounds.perEpoch, 2, 'no unit takes part in 3 releases of one epoch');
  const dropped = await db.all<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM decisions WHERE reward_state = 3',
  );
  assert.equal(Number(dropped[0]?.n), 3, 'the dropped rewards are marked on their decisions');
  const pendingDropped = await db.all<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM pending_rewards p JOIN decisions d ON d.model = p.model AND d.event_id = p.event_id WHERE d.reward_state = 3',
  );
  assert.equal(Number(pendingDropped[0]?.n), 0, 'a dropped reward never enters the raw statistics');
  const rows = await db.all<{ unit: string }>('SELECT unit FROM unit_counts ORDER BY unit');
  assert.deepEqual(
    rows.map((r) => r.unit),
    ['u6', 'u7', 'u8'],
    'the counts of an old epoch expire at the first reward of the new one',
  );
}

/**
 * Default rewards of a user-level model go through the same bounds: after the window, the sweep
 * gives the default reward to each expired decision with its unit, first come first kept (a
 * second decision of the same unit in the open release is dropped).
 */
export async function defaultRewardScenario(db: EngineDb): Promise<void> {
  const t = await startTestServer(await db.server());
  try {
    const c = t.client;
    await c.createModel('d', { ...USER, defaultReward: 0.5, rewardWindowSeconds: 60 });
    for (const unit of ['u1', 'u1', 'u2']) await c.rank('d', { unit, arms: ARMS });
    t.advance(61_000);
    const d = await c.rank('d', { unit: 'u3', arms: ARMS });
    const r = await c.reward('d', { eventId: d.eventId, reward: 1 });
    assert.equal(r.dropped, undefined);
    assert.equal(r.released, true, 'two default rewards and this one fill the batch of 3');
    const s = await c.status('d');
    assert.deepEqual(s.privacy.dropped, { perRelease: 1, perEpoch: 0, total: 1 });
    assert.equal(s.defaultRewards, 3);
    assert.equal(s.rounds, 3);
    assert.equal(s.modelVersion, 1);
  } finally {
    await t.close();
  }
  const bounds = await boundsFromDb(db, 'd', 30 * DAY);
  assert.deepEqual(bounds, { perRelease: 1, perEpoch: 1, released: 3 });
}
