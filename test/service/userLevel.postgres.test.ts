// Privacy units on PostgreSQL: the store's unit writes commit with the reward (kept: count row and
// pending reward; dropped: decision marked, no pending row, totals counted; expiry), the replicas log
// the units of event-level models and refuse user-level models with the reason.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { AdaPrivateClientError } from '../../src/client/index.js';
import { PostgresStore, type UnitWrite } from '../../src/store/index.js';
import { startPostgres } from '../support/postgres.js';
import { startTestServer } from './testServer.js';

const server = await startPostgres();
after(() => server.stop());

const ARMS = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
];

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
        probabilitySamples: 1,
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

test('replicas: user-level models are refused with the reason; event-level models log the units', async () => {
  const { PostgresStore: P } = await import('../../src/store/index.js');
  const t = await startTestServer({ store: await P.open(await server.createDatabase()) });
  try {
    try {
      await t.client.createModel('u', {
        policy: 'adaprivate-ts',
        options: { dim: 2, horizon: 100, epsilon: 1, privacyUnit: 'user', releasesPerEpoch: 2 },
      });
      assert.fail('expected 400');
    } catch (e) {
      assert.ok(e instanceof AdaPrivateClientError);
      assert.equal(e.status, 400);
      assert.match(e.message, /not served by replicas sharing PostgreSQL/);
    }
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
