/**
 * Decision retention (issue 26) on both engines: with `retainDecisionsDays`, a retention pass at the
 * injected clock's time removes the decisions older than the retention whose reward is settled
 * (released) or can no longer come (past the reward window, no default reward), never one whose raw
 * reward waits for its release, nor a recent one; the export shows what is left. The pass is called
 * directly (the server's hourly timer calls the same function): nothing here waits on a timer.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createServer } from '../../src/service/index.js';
import { PostgresStore } from '../../src/store/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';
import { startTestServer, TEST_KEY } from './testServer.js';

const TS = {
  policy: 'adaprivate-ts',
  options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 3, seed: 7 },
  rewardWindowSeconds: 3600,
};
const ARMS = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
];
const DAY = 86_400_000;

let pg: PostgresServer;
before(async () => {
  pg = await startPostgres();
});
after(() => pg?.stop());

for (const engine of ['sqlite', 'postgres'] as const) {
  test(`retention (${engine}): old settled or unrewardable decisions go, pending and recent ones stay`, async () => {
    const store = engine === 'postgres' ? { store: await PostgresStore.open(await pg.createDatabase()) } : {};
    const t = await startTestServer({ ...store, retainDecisionsDays: 2 });
    try {
      await t.client.createModel('r', TS);
      // e0-e2: released batch; e3: reward pending; e4: never rewarded
      for (let i = 0; i < 5; i++) {
        await t.client.rank('r', { eventId: `e${i}`, arms: ARMS });
        if (i < 4) await t.client.reward('r', { eventId: `e${i}`, reward: i % 2 });
      }
      assert.deepEqual(await t.server.expireDecisions(), {}, 'nothing is 2 days old yet');
      t.advance(DAY);
      await t.client.rank('r', { eventId: 'recent', arms: ARMS });
      assert.deepEqual(await t.server.expireDecisions(), {}, '1 day: still within the retention');
      t.advance(DAY + 1);
      assert.deepEqual(await t.server.expireDecisions(), { r: 4 });
      const left = (await t.client.exportDecisions('r')).map((l) => l.eventId);
      assert.deepEqual(left, ['e3', 'recent']);
      const s = await t.client.status('r');
      assert.equal(s.decisions, 2);
      assert.equal(s.pendingRewards, 1, 'the pending raw reward is kept for its release');
      assert.equal(s.releasedRewards, 3, 'the ledger still counts the released rewards');
      assert.equal((await t.client.ledger('r')).releases.length, 1);
      // the pending reward's decision goes once its batch is released
      for (const id of ['n1', 'n2']) {
        await t.client.rank('r', { eventId: id, arms: ARMS });
        await t.client.reward('r', { eventId: id, reward: 1 });
      }
      t.advance(2 * DAY + 1);
      assert.deepEqual(await t.server.expireDecisions(), { r: 4 });
      assert.deepEqual(await t.client.exportDecisions('r'), []);
    } finally {
      await t.close();
    }
  });
}

for (const engine of ['sqlite', 'postgres'] as const) {
  test(`per-model retention (${engine}): a model's retainDecisionsDays overrides the server's, shown in its status`, async () => {
    const store = engine === 'postgres' ? { store: await PostgresStore.open(await pg.createDatabase()) } : {};
    // the server keeps decisions 5 days; 'short' keeps them 1 day; 'long' 10 days; 'default' the server's
    const t = await startTestServer({ ...store, retainDecisionsDays: 5 });
    try {
      await t.client.createModel('short', { ...TS, retainDecisionsDays: 1 });
      await t.client.createModel('long', { ...TS, retainDecisionsDays: 10 });
      await t.client.createModel('default', TS);
      assert.equal((await t.client.status('short')).settings.retainDecisionsDays, 1);
      assert.equal((await t.client.status('default')).settings.retainDecisionsDays, null);
      for (const m of ['short', 'long', 'default']) {
        await t.client.rank(m, { eventId: 'old', arms: ARMS }); // never rewarded: past its window later
      }
      t.advance(DAY + 1);
      assert.deepEqual(await t.server.expireDecisions(), { short: 1 }, "1 day: only 'short' expires");
      t.advance(4 * DAY);
      assert.deepEqual(await t.server.expireDecisions(), { default: 1 }, "5 days: the server's retention");
      t.advance(5 * DAY);
      assert.deepEqual(
        await t.server.expireDecisions(),
        { long: 1 },
        "10 days: 'long' (longer than the server's)",
      );
      // the same request again is the same model; another retention is another model
      assert.equal((await t.client.createModel('short', { ...TS, retainDecisionsDays: 1 })).created, false);
      const changed = await t.raw('PUT', '/v1/models/short', { ...TS, retainDecisionsDays: 2 });
      assert.equal(changed.status, 409);
      assert.match(changed.body.message, /retainDecisionsDays = 1; got 2/);
      for (const bad of [0, -1, 40_000, 'x']) {
        const r = await t.raw('PUT', '/v1/models/bad', { ...TS, retainDecisionsDays: bad });
        assert.equal(r.status, 400, `${bad}: ${r.text}`);
      }
    } finally {
      await t.close();
    }
  });
}

test('per-model retention applies on a server without retention', async () => {
  const t = await startTestServer();
  try {
    await t.client.createModel('own', { ...TS, retainDecisionsDays: 0.5 });
    await t.client.createModel('kept', TS);
    for (const m of ['own', 'kept']) await t.client.rank(m, { eventId: 'e', arms: ARMS });
    t.advance(DAY);
    assert.deepEqual(await t.server.expireDecisions(), { own: 1 });
    assert.equal((await t.client.exportDecisions('kept')).length, 1, 'no retention: kept');
  } finally {
    await t.close();
  }
});

test('retention: with a default reward, an unrewarded decision is kept a further retention period past its window', async () => {
  // no default-reward sweep runs here (the interval is longer than the test): the decision stays open
  const t = await startTestServer({ retainDecisionsDays: 1, sweepIntervalMs: 2_000_000_000 });
  try {
    await t.client.createModel('d', { ...TS, defaultReward: 0 });
    await t.client.rank('d', { eventId: 'open', arms: ARMS });
    t.advance(DAY + 1);
    assert.deepEqual(await t.server.expireDecisions(), {}, 'past retention and window: kept for its default');
    t.advance(3_600_000);
    assert.deepEqual(await t.server.expireDecisions(), { d: 1 });
  } finally {
    await t.close();
  }
});

test('retention: retainDecisionsDays and retentionIntervalMs are validated, naming the option', async () => {
  for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
    await assert.rejects(
      createServer({ db: ':memory:', apiKeys: [TEST_KEY], logger: false, retainDecisionsDays: bad }),
      /option 'retainDecisionsDays' must be a positive number of days/,
    );
  }
  await assert.rejects(
    createServer({ db: ':memory:', apiKeys: [TEST_KEY], logger: false, retentionIntervalMs: 10 }),
    /option 'retentionIntervalMs' must be an integer of at least 1000/,
  );
  // without any retention a pass removes nothing
  const s = await createServer({ db: ':memory:', apiKeys: [TEST_KEY], logger: false, defaultMetrics: false });
  try {
    assert.deepEqual(await s.expireDecisions(), {});
  } finally {
    await s.close();
  }
});
