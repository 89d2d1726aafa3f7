/**
 * The contract every {@link Store} engine passes (run by test/store/SqliteStore.test.ts; a PostgreSQL
 * engine runs the same function). `open` gives a fresh, empty store each call.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DecisionRow, NewModelRow, ReleaseInput, Store } from '../../src/store/index.js';
import { StoreConflictError } from '../../src/store/index.js';

const SETTINGS = {
  rewardWindowSeconds: 60,
  defaultReward: null,
  duplicateRule: 'first' as const,
  logRewards: false,
  logCandidates: true,
  probabilitySamples: 100,
  retainDecisionsDays: null,
};

function model(name: string, over: Partial<NewModelRow> = {}): NewModelRow {
  return {
    name,
    policy: 'adaprivate-ts',
    options: { dim: 2, horizon: 100, epsilon: 1 },
    settings: SETTINGS,
    createdAt: 1000,
    snapshot: '{"fresh":true}',
    ...over,
  };
}

function decision(m: string, eventId: string, time = 2000): DecisionRow {
  return {
    model: m,
    eventId,
    seq: 0,
    time,
    armIds: ['a', 'b'],
    features: new Float64Array([0.1, 0.2, 0.3, 1 / 3]),
    dim: 2,
    chosen: 1,
    chosenFeatures: new Float64Array([0.3, 1 / 3]),
    probabilities: [0.25, 0.75],
    modelVersion: 0,
    rewardState: 'none',
    reward: null,
    rewardSource: null,
    release: null,
  };
}

function reward(m: string, eventId: string, r: number, logReward = false) {
  return { model: m, eventId, reward: r, time: 3000, source: 'given' as const, logReward };
}

function release(version: number, over: Partial<ReleaseInput> = {}): ReleaseInput {
  return {
    version,
    snapshot: `{"v":${version}}`,
    spent: { epsilon: 1, releases: version },
    releases: 1,
    rounds: 2,
    ...over,
  };
}

export function storeContract(engine: string, open: () => Promise<Store>): void {
  const t = (name: string, fn: (s: Store) => Promise<void>) =>
    test(`${engine} store: ${name}`, async () => {
      const s = await open();
      try {
        await fn(s);
      } finally {
        await s.close();
      }
    });

  t('createModel: first wins, the second call returns the stored model unchanged', async (s) => {
    const a = await s.createModel(model('m'));
    assert.equal(a.created, true);
    assert.equal(a.model.version, 0);
    const b = await s.createModel(model('m', { options: { dim: 3, horizon: 5, epsilon: 9 } }));
    assert.equal(b.created, false);
    assert.deepEqual(b.model.options, { dim: 2, horizon: 100, epsilon: 1 });
    assert.deepEqual(b.model.settings, SETTINGS);
    assert.equal(await s.getModel('nope'), null);
    await s.createModel(model('a'));
    assert.deepEqual(
      (await s.listModels()).map((x) => x.name),
      ['a', 'm'],
    );
  });

  t(
    'a decision of a model that does not log candidates: the chosen arm only, with its clipped count (schema 5)',
    async (s) => {
      await s.createModel(model('m', { settings: { ...SETTINGS, logCandidates: false } }));
      assert.equal((await s.getModel('m'))?.settings.logCandidates, false, 'the setting is stored');
      const full = decision('m', 'full');
      // bit patterns JSON text would not keep exactly: a subnormal, -0, the largest double
      const chosen = new Float64Array([5e-324, -0]);
      await s.insertDecision({ ...full, eventId: 'e1', features: chosen, clipped: 3 });
      await s.insertDecision({ ...full, eventId: 'e2', features: new Float64Array([Number.MAX_VALUE, 1]) });
      const d = await s.getDecision('m', 'e1');
      assert.ok(d !== null);
      assert.equal(d.features.length, 2, 'only the chosen arm (d values) is stored');
      assert.ok(Object.is(d.features[0], 5e-324) && Object.is(d.features[1], -0), 'bit-exact Float64');
      assert.equal(d.clipped, 3);
      assert.equal((await s.getDecision('m', 'e2'))?.clipped, null, 'a row without a count reads null');
      const at = await s.decisionFeaturesAt('m', 0);
      assert.deepEqual(
        at.map((r) => [r.features.length, r.clipped]),
        [
          [2, 3],
          [2, null],
        ],
      );
      assert.deepEqual(
        (await s.exportDecisions('m', { limit: 10 })).map((r) => [r.eventId, r.clipped, r.features[0]]),
        [
          ['e1', 3, 5e-324],
          ['e2', null, Number.MAX_VALUE],
        ],
      );
    },
  );

  t('insertDecision: stored exactly once per (model, event id), features bit-exact', async (s) => {
    await s.createModel(model('m'));
    assert.equal(await s.insertDecision(decision('m', 'e1')), true);
    assert.equal(await s.insertDecision(decision('m', 'e1')), false);
    const d = await s.getDecision('m', 'e1');
    assert.ok(d !== null);
    assert.deepEqual([...d.features], [0.1, 0.2, 0.3, 1 / 3]);
    assert.deepEqual([...d.chosenFeatures], [0.3, 1 / 3]);
    assert.deepEqual(d.armIds, ['a', 'b']);
    assert.deepEqual(d.probabilities, [0.25, 0.75]);
    assert.equal(d.rewardState, 'none');
    assert.equal(await s.getDecision('m', 'e2'), null);
    assert.equal(await s.getDecision('other', 'e1'), null);
  });

  t('rewardTarget: time, reward state and chosen features (bit-exact) of one decision', async (s) => {
    await s.createModel(model('m'));
    await s.insertDecision(decision('m', 'e1', 1234));
    const r = await s.rewardTarget('m', 'e1');
    assert.ok(r !== null);
    assert.equal(r.time, 1234);
    assert.equal(r.rewardState, 'none');
    assert.deepEqual([...r.chosenFeatures], [0.3, 1 / 3]);
    assert.equal(await s.rewardTarget('m', 'e2'), null);
    assert.equal(await s.rewardTarget('other', 'e1'), null);
    await s.recordReward(reward('m', 'e1', 1), null);
    assert.equal((await s.rewardTarget('m', 'e1'))?.rewardState, 'pending');
  });

  t('recordReward: unknown, duplicate, then pending in arrival order', async (s) => {
    await s.createModel(model('m'));
    for (const e of ['e1', 'e2', 'e3']) await s.insertDecision(decision('m', e));
    assert.equal(await s.recordReward(reward('m', 'zz', 1), null), 'unknown-event');
    assert.equal(await s.recordReward(reward('m', 'e2', 0.5), null), 'recorded');
    assert.equal(await s.recordReward(reward('m', 'e2', 1), null), 'duplicate');
    assert.equal(await s.recordReward(reward('m', 'e1', 0.25), null), 'recorded');
    const st = await s.loadModelState('m');
    assert.ok(st !== null);
    assert.deepEqual(
      st.pending.map((p) => [p.eventId, p.reward]),
      [
        ['e2', 0.5],
        ['e1', 0.25],
      ],
    );
    assert.deepEqual([...st.pending[0]!.features], [0.3, 1 / 3]);
    // the reward value is not kept on the decision unless the model logs rewards
    assert.equal((await s.getDecision('m', 'e2'))?.reward, null);
    assert.equal((await s.getDecision('m', 'e2'))?.rewardState, 'pending');
    assert.deepEqual(await s.counts('m'), {
      decisions: 3,
      pendingRewards: 2,
      releasedRewards: 0,
      defaultRewards: 0,
    });
  });

  t('recordReward with a release: snapshot, ledger and released rewards commit together', async (s) => {
    await s.createModel(model('m'));
    for (const e of ['e1', 'e2', 'e3']) await s.insertDecision(decision('m', e));
    await s.recordReward(reward('m', 'e1', 1, true), null);
    assert.equal(await s.recordReward(reward('m', 'e2', 0, true), release(1)), 'recorded');
    const st = await s.loadModelState('m');
    assert.deepEqual(st, { snapshot: '{"v":1}', version: 1, rounds: 2, pending: [] });
    const ledger = await s.ledger('m');
    assert.equal(ledger.length, 1);
    assert.equal(ledger[0]!.version, 1);
    assert.equal(ledger[0]!.rewards, 2);
    assert.deepEqual(ledger[0]!.spent, { epsilon: 1, releases: 1 });
    const d1 = await s.getDecision('m', 'e1');
    assert.equal(d1?.rewardState, 'released');
    assert.equal(d1?.release, 1);
    assert.equal(d1?.reward, 1);
    assert.equal((await s.getModel('m'))?.version, 1);
    assert.deepEqual(await s.counts('m'), {
      decisions: 3,
      pendingRewards: 0,
      releasedRewards: 2,
      defaultRewards: 0,
    });
  });

  t(
    'insertDecision with a release (made by a select): decision, snapshot, ledger and released rewards commit together',
    async (s) => {
      await s.createModel(model('m'));
      for (const e of ['e1', 'e2']) await s.insertDecision(decision('m', e));
      await s.recordReward(reward('m', 'e1', 1), null);
      assert.equal(await s.insertDecision(decision('m', 'e3'), release(1, { rounds: 1 })), true);
      assert.deepEqual(await s.loadModelState('m'), {
        snapshot: '{"v":1}',
        version: 1,
        rounds: 1,
        pending: [],
      });
      const ledger = await s.ledger('m');
      assert.deepEqual(
        ledger.map((r) => [r.version, r.rewards, r.releases]),
        [[1, 1, 1]],
      );
      assert.equal((await s.getDecision('m', 'e1'))?.rewardState, 'released');
      assert.equal((await s.getDecision('m', 'e3'))?.rewardState, 'none');
      // a release that does not follow the stored version: nothing written, not even the decision
      await assert.rejects(s.insertDecision(decision('m', 'e4'), release(1)), StoreConflictError);
      assert.equal(await s.getDecision('m', 'e4'), null);
      // a refused decision (its event id exists) still records the release its select made
      assert.equal(await s.insertDecision(decision('m', 'e3'), release(2, { rounds: 1 })), false);
      assert.equal((await s.ledger('m')).length, 2);
      assert.equal((await s.getModel('m'))?.version, 2);
      assert.equal((await s.counts('m')).decisions, 3);
    },
  );

  t('recordReward: a release that does not follow the stored version writes nothing', async (s) => {
    await s.createModel(model('m'));
    for (const e of ['e1', 'e2', 'e3']) await s.insertDecision(decision('m', e));
    await s.recordReward(reward('m', 'e1', 1), release(1));
    await assert.rejects(s.recordReward(reward('m', 'e2', 1), release(1)), StoreConflictError);
    await assert.rejects(s.recordReward(reward('m', 'e2', 1), release(3)), StoreConflictError);
    // rolled back: e2 has no reward, nothing pending, one ledger row
    assert.equal((await s.getDecision('m', 'e2'))?.rewardState, 'none');
    assert.deepEqual((await s.loadModelState('m'))?.pending, []);
    assert.equal((await s.ledger('m')).length, 1);
    assert.equal(await s.recordReward(reward('m', 'e2', 1), release(2)), 'recorded');
  });

  t(
    'expiredDecisions: rewardless decisions before a time, oldest first; default rewards counted',
    async (s) => {
      await s.createModel(model('m'));
      await s.insertDecision(decision('m', 'late', 5000));
      await s.insertDecision(decision('m', 'old', 1000));
      await s.insertDecision(decision('m', 'mid', 2000));
      await s.recordReward(reward('m', 'mid', 1), null);
      assert.deepEqual(
        (await s.expiredDecisions('m', 4000, 10)).map((d) => d.eventId),
        ['old'],
      );
      assert.deepEqual(
        (await s.expiredDecisions('m', 6000, 10)).map((d) => d.eventId),
        ['old', 'late'],
      );
      assert.equal((await s.expiredDecisions('m', 6000, 1)).length, 1);
      await s.recordReward({ ...reward('m', 'old', 0), source: 'default' }, null);
      assert.equal((await s.counts('m')).defaultRewards, 1);
      assert.equal((await s.getDecision('m', 'old'))?.rewardSource, 'default');
    },
  );

  t('exportDecisions: in decision order, paged by seq, per model', async (s) => {
    await s.createModel(model('m'));
    await s.createModel(model('n'));
    for (let i = 0; i < 5; i++) {
      await s.insertDecision(decision('m', `e${i}`));
      await s.insertDecision(decision('n', `x${i}`));
    }
    const first = await s.exportDecisions('m', { limit: 3 });
    assert.deepEqual(
      first.map((d) => d.eventId),
      ['e0', 'e1', 'e2'],
    );
    const rest = await s.exportDecisions('m', { afterSeq: first[2]!.seq, limit: 10 });
    assert.deepEqual(
      rest.map((d) => d.eventId),
      ['e3', 'e4'],
    );
    await s.ping();
  });
}
