// Privacy units on PostgreSQL: the store's unit writes commit with the reward (kept: count row and
// pending reward; dropped: decision marked, no pending row, totals counted; expiry); user-level
// models on replicas run the same assertions as on one SQLite server (userLevelScenario.ts); two
// replicas sending the same units at once never let a unit pass its bounds (checked from the
// database); the replicas refuse what they cannot serve, with the reason, and log the units of
// event-level models.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { AdaPrivateClientError } from '../../src/client/index.js';
import { PostgresStore, type UnitWrite } from '../../src/store/index.js';
import { startPostgres } from '../support/postgres.js';
import { startTestServer } from './testServer.js';
import {
  ARMS,
  boundsFromDb,
  codeOf,
  defaultRewardScenario,
  type EngineDb,
  USER,
  userLevelScenario,
} from './userLevelScenario.js';

const server = await startPostgres();
after(() => server.stop());

/** A fresh PostgreSQL database as the scenario's database: each server gets its own store (a replica). */
async function postgresDb(): Promise<EngineDb> {
  const url = await server.createDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  return {
    server: async () => ({ store: await PostgresStore.open(url) }),
    all: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await pool.query(sql, [...params])).rows as T[],
    close: () => pool.end(),
  };
}

test('PostgresStore: a reward and its unit write commit together; a dropped reward is never pending; old epochs expire', async () => {
  const store = await PostgresStore.open(await server.createDatabase());
  try {
    await store.createModel({
      name: 'm',
      policy: 'adaprivate-ts',
      options: {},
      settings: {
        rewardWindowSeconds: 60,
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
    for (const [e, unit] of [
      ['e1', 'alice'],
      ['e2', 'alice'],
      ['e3', 'bob'],
    ] as const) {
      assert.equal(
        await store.insertDecision({
          model: 'm',
          eventId: e,
          seq: 0,
          time: 0,
          armIds: ['a'],
          features: Float64Array.of(0.6, 0.8),
          dim: 2,
          chosen: 0,
          chosenFeatures: Float64Array.of(0.6, 0.8),
          probabilities: [1],
          modelVersion: 0,
          rewardState: 'none',
          reward: null,
          rewardSource: null,
          release: null,
          unit,
        }),
        true,
      );
    }
    const input = (eventId: string) =>
      ({ model: 'm', eventId, reward: 1, time: 0, source: 'given', logReward: false }) as const;
    const kept: UnitWrite = {
      unit: 'alice',
      count: { epoch: 0, release: 1, inRelease: 1, releases: 1, sampled: null },
      dropped: null,
      expireBefore: null,
      openEpoch: 0,
    };
    assert.equal(await store.recordReward(input('e1'), null, kept), 'recorded');
    assert.deepEqual(await store.unitCount('m', 'alice'), kept.count);
    const dropped: UnitWrite = {
      unit: 'alice',
      count: null,
      dropped: 'perRelease',
      expireBefore: null,
      openEpoch: null,
    };
    assert.equal(await store.recordReward(input('e2'), null, dropped), 'recorded');
    assert.equal(
      await store.recordReward(input('e2'), null, dropped),
      'duplicate',
      'a dropped reward is recorded once',
    );
    const state = await store.loadModelState('m');
    assert.deepEqual(
      state?.pending.map((p) => [p.eventId, p.unit]),
      [['e1', 'alice']],
      'the dropped reward is not pending',
    );
    assert.equal((await store.getDecision('m', 'e2'))?.rewardState, 'dropped');
    assert.deepEqual(await store.unitTotals('m'), { droppedPerRelease: 1, droppedPerEpoch: 0, openEpoch: 0 });
    // bob in epoch 1 expires the counts of epoch 0 in the same transaction
    await store.recordReward(input('e3'), null, {
      unit: 'bob',
      count: { epoch: 1, release: 1, inRelease: 1, releases: 1, sampled: null },
      dropped: null,
      expireBefore: 1,
      openEpoch: 1,
    });
    assert.equal(await store.unitCountRows('m'), 1);
    assert.equal(await store.unitCount('m', 'alice'), null);
  } finally {
    await store.close();
  }
});

test('replicas: c = 1 and m = 2, the same assertions as on one SQLite server (second reward per release and third release per epoch dropped and counted, an epoch change closes the open release, a restart, bounds from the database)', async () => {
  const db = await postgresDb();
  try {
    await userLevelScenario(db);
  } finally {
    await db.close();
  }
});

test('replicas: default rewards after the window go through the same bounds (first come, first kept)', async () => {
  const db = await postgresDb();
  try {
    await defaultRewardScenario(db);
  } finally {
    await db.close();
  }
});

test('two replicas sending the same units at once: no unit ever has 2 rewards in a release (c = 1) or takes part in 3 releases (m = 2); every reward kept once or dropped once', async () => {
  const db = await postgresDb();
  const a = await startTestServer(await db.server());
  const b = await startTestServer(await db.server());
  try {
    const { epochDays: _lifetime, ...lifetime } = USER.options;
    await a.client.createModel('u', { policy: 'adaprivate-ts', options: lifetime });
    const UNITS = 8;
    const PER_UNIT = 6;
    const replicas = [a.client, b.client];
    // each unit's decisions alternate between the replicas; then every reward is sent at once, each
    // unit's through both replicas
    const events: { eventId: string; unit: string; via: number }[] = [];
    for (let u = 0; u < UNITS; u++) {
      for (let k = 0; k < PER_UNIT; k++) {
        const via = (u + k) % 2;
        const d = await replicas[via]!.rank('u', { unit: `u${u}`, arms: ARMS });
        events.push({ eventId: d.eventId, unit: `u${u}`, via: 1 - via });
      }
    }
    const answers = await Promise.all(
      events.map((e) => replicas[e.via]!.reward('u', { eventId: e.eventId, reward: 1 })),
    );
    const dropped = answers.filter((r) => r.dropped !== undefined).length;
    assert.ok(dropped > 0, 'the bounds were reached');
    const kept = events.length - dropped;
    assert.ok(kept <= UNITS * 2, `${kept} kept rewards: at most m = 2 per unit`);
    // what is due is released (a replica may have lost the race for a release: the other made it)
    for (const c of replicas) await c.status('u');
    const [sa, sb] = [await a.client.status('u'), await b.client.status('u')];
    assert.deepEqual(sa.privacy, sb.privacy, 'both replicas report one guarantee');
    assert.equal(sa.privacy.dropped?.total, dropped, 'every dropped reward counted once');
    assert.equal(sa.rounds, kept, 'every kept reward learned or pending once');
    assert.equal(sa.releasedRewards, 3 * sa.modelVersion, 'each release holds one batch of 3');
    assert.ok(sa.pendingRewards < 3, `no full batch left pending (${sa.pendingRewards})`);
    assert.ok((sa.privacy.perEpoch?.epsilon ?? 9) <= 1 + 1e-9, 'within the target');

    // from the database
    const bounds = await boundsFromDb(db, 'u', 1e15);
    assert.ok(bounds.perRelease <= 1, `a unit has ${bounds.perRelease} rewards in one release`);
    assert.ok(bounds.perEpoch <= 2, `a unit takes part in ${bounds.perEpoch} releases`);
    const open = await db.all<{ unit: string; n: string }>(
      `SELECT u.unit, COUNT(*) AS n FROM pending_rewards p JOIN decision_units u
       ON u.model = p.model AND u.event_id = p.event_id WHERE p.model = 'u' GROUP BY u.unit`,
    );
    for (const r of open)
      assert.equal(Number(r.n), 1, `${r.unit}: ${r.n} rewards pending in the open release`);
    const perUnit = await db.all<{ unit: string; n: string }>(
      `SELECT u.unit, COUNT(DISTINCT COALESCE(d.release, -1)) AS n FROM decisions d JOIN decision_units u
       ON u.model = d.model AND u.event_id = d.event_id
       WHERE d.model = 'u' AND d.reward_state IN (1, 2) GROUP BY u.unit`,
    );
    assert.equal(perUnit.length, UNITS, 'every unit kept its first reward');
    for (const r of perUnit) assert.ok(Number(r.n) <= 2, `${r.unit} takes part in ${r.n} releases (m = 2)`);
    const counts = await db.all<{ unit: string; in_release: number; releases: number }>(
      "SELECT unit, in_release, releases FROM unit_counts WHERE model = 'u'",
    );
    for (const c of counts) {
      assert.ok(c.in_release <= 1 && c.releases <= 2, `${c.unit}: stored count within the bounds`);
      assert.equal(
        c.releases,
        Number(perUnit.find((r) => r.unit === c.unit)?.n),
        `${c.unit}: count = releases`,
      );
    }
    const states = await db.all<{ s: number; n: string }>(
      "SELECT reward_state AS s, COUNT(*) AS n FROM decisions WHERE model = 'u' GROUP BY reward_state ORDER BY s",
    );
    assert.equal(
      states.reduce((acc, r) => acc + Number(r.n), 0),
      events.length,
    );
    assert.equal(Number(states.find((r) => r.s === 3)?.n ?? 0), dropped, 'dropped once each');
  } finally {
    await a.close();
    await b.close();
    await db.close();
  }
});

test('replicas refuse what they cannot serve, with the reason; event-level models log the units', async () => {
  const t = await startTestServer({ store: await PostgresStore.open(await server.createDatabase()) });
  try {
    const user = { dim: 2, horizon: 100, epsilon: 1, privacyUnit: 'user' as const, releasesPerEpoch: 2 };
    const serialised = await codeOf(
      t.client.createModel('s', { policy: 'rarely-switching-zcdp', options: user }),
    );
    assert.deepEqual(serialised.slice(0, 2), [400, 'invalid_options']);
    assert.match(serialised[2], /with 'rarely-switching-zcdp' is not served on replicas sharing PostgreSQL/);
    const amp = await codeOf(
      t.client.createModel('amp', { policy: 'adaprivate-ts-amp', options: { ...user, q: 0.5 } }),
    );
    assert.match(amp[2], /q = 0.5 with privacyUnit 'user' is not served on replicas sharing PostgreSQL/);
    const rounds = await codeOf(
      t.client.createModel('r', { policy: 'adaprivate-ts', options: { ...user, epochRounds: 10 } }),
    );
    assert.match(rounds[2], /epochRounds is not served on replicas sharing PostgreSQL/);
    await t.client.createModel('e', {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 100, epsilon: 1 },
    });
    const r1 = await t.client.rank('e', { unit: 'alice', arms: ARMS });
    await t.client.reward('e', { eventId: r1.eventId, reward: 1 });
    const r2 = await t.client.rank('e', { arms: ARMS });
    await t.client.reward('e', { eventId: r2.eventId, reward: 0, unit: 'bob' });
    const r3 = await t.client.rank('e', { unit: 'carol', arms: ARMS });
    try {
      await t.client.reward('e', { eventId: r3.eventId, reward: 0, unit: 'dave' });
      assert.fail('expected 409');
    } catch (e) {
      assert.ok(e instanceof AdaPrivateClientError);
      assert.equal(e.code, 'unit_mismatch');
    }
    const lines = await t.client.exportDecisions('e');
    assert.deepEqual(
      lines.map((l) => l.unit),
      ['alice', 'bob', 'carol'],
    );
  } finally {
    await t.close();
  }
});
