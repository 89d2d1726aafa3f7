// Two service replicas (createServer in this process) on one PostgreSQL database: rewards through
// either one are released exactly once, a replica picks up the other's releases by notification,
// and both report the same ledger and guarantee.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PostgresStore } from '../../src/store/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';
import { startTestServer, type TestServer } from './testServer.js';

const ARMS = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
];

let pg: PostgresServer;
before(async () => {
  pg = await startPostgres();
});
after(async () => {
  await pg?.stop();
});

/** Two replicas on a fresh database; the version check is off (1 h) unless `versionCheckMs` is given. */
async function twoReplicas(versionCheckMs = 3_600_000): Promise<[TestServer, TestServer]> {
  const url = await pg.createDatabase();
  const a = await startTestServer({ store: await PostgresStore.open(url), versionCheckMs });
  const b = await startTestServer({
    store: await PostgresStore.open(url, { migrate: false }),
    versionCheckMs,
  });
  return [a, b];
}

/** Ranks on `t` until its decision view has reached `version` (it must, by notification). */
async function viewReaches(t: TestServer, model: string, version: number): Promise<void> {
  for (let i = 0; ; i++) {
    const d = await t.client.rank(model, { arms: ARMS });
    if (d.modelVersion >= version) return;
    assert.ok(i < 10_000, `the view stayed at version ${d.modelVersion}`);
    await new Promise((r) => setImmediate(r));
  }
}

test('rewards through two replicas: each batch released once, views follow by notification, ledgers agree', async () => {
  const [a, b] = await twoReplicas();
  try {
    const ts = {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 3, seed: 3 },
    };
    await a.client.createModel('m', ts);
    assert.equal((await b.client.createModel('m', ts)).created, false);
    let released = 0;
    for (let i = 0; i < 9; i++) {
      const [decider, rewarder] = i % 2 === 0 ? [a, b] : [b, a];
      const d = await decider.client.rank('m', { arms: ARMS });
      const r = await rewarder.client.reward('m', { eventId: d.eventId, reward: i % 3 === 0 ? 1 : 0.5 });
      if (r.released) released++;
    }
    assert.equal(released, 3, 'three batches of 3, each released by one replica');
    // the replica that did not commit the last release learns of it through LISTEN/NOTIFY only
    await viewReaches(a, 'm', 3);
    await viewReaches(b, 'm', 3);
    const [sa, sb] = [await a.client.status('m'), await b.client.status('m')];
    for (const s of [sa, sb]) {
      assert.equal(s.modelVersion, 3);
      assert.equal(s.batchesReleased, 3);
      assert.equal(s.releasedRewards, 9);
      assert.equal(s.pendingRewards, 0);
      assert.equal(s.rounds, 9);
    }
    assert.deepEqual(sa.privacy, sb.privacy);
    assert.equal(sa.privacy.releases, 3);
    const [la, lb] = [await a.client.ledger('m'), await b.client.ledger('m')];
    assert.deepEqual(la, lb);
    assert.deepEqual(
      la.releases.map((e) => [e.version, e.rewards, e.releases, e.rounds]),
      [
        [1, 3, 1, 3],
        [2, 3, 1, 6],
        [3, 3, 1, 9],
      ],
    );
  } finally {
    await a.close();
    await b.close();
  }
});

test('with versionCheckMs = 0 a replica decides from a release committed by another at its next request', async () => {
  const [a, b] = await twoReplicas(0); // check before every request
  try {
    const ts = {
      policy: 'adaprivate-ucb',
      options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 2, seed: 3 },
    };
    await a.client.createModel('u', ts);
    await b.client.rank('u', { arms: ARMS }); // b loads the model
    for (let i = 0; i < 2; i++) {
      const d = await a.client.rank('u', { arms: ARMS });
      await a.client.reward('u', { eventId: d.eventId, reward: 1 });
    }
    // with a check before every request, b's very next decision uses version 1
    assert.equal((await b.client.rank('u', { arms: ARMS })).modelVersion, 1);
  } finally {
    await a.close();
    await b.close();
  }
});

test('non-private policies: every reward is committed as its own batch (0 privacy releases in the ledger)', async () => {
  const [a, b] = await twoReplicas();
  try {
    await a.client.createModel('l', { policy: 'lints', options: { dim: 2, horizon: 100, seed: 1 } });
    for (let i = 0; i < 4; i++) {
      const d = await (i % 2 === 0 ? a : b).client.rank('l', { arms: ARMS });
      const r = await (i % 2 === 0 ? b : a).client.reward('l', { eventId: d.eventId, reward: 1 });
      assert.equal(r.released, true);
    }
    const l = await b.client.ledger('l');
    assert.deepEqual(
      l.releases.map((e) => [e.version, e.rewards, e.releases]),
      [1, 2, 3, 4].map((v) => [v, 1, 0]),
    );
    const s = await a.client.status('l');
    assert.equal(s.rounds, 4);
    assert.equal(s.pendingRewards, 0);
    assert.match(s.budget.note, /non-private/);
  } finally {
    await a.close();
    await b.close();
  }
});

test('policies that do not release once per fixed batch are refused on PostgreSQL with 400', async () => {
  const [a, b] = await twoReplicas();
  try {
    for (const policy of [
      'jdp-linucb',
      'zcdp-episodic',
      'dgs-linucb',
      'adac-oful-zcdp',
      'rarely-switching-zcdp',
    ]) {
      const r = await a.raw('PUT', `/v1/models/${policy}`, {
        policy,
        options: { dim: 2, horizon: 10, epsilon: 1 },
      });
      assert.equal(r.status, 400, policy);
      assert.equal(r.body.code, 'policy_not_supported_on_replicas');
      assert.match(r.body.message, new RegExp(`policy '${policy}' cannot be served`));
    }
  } finally {
    await a.close();
    await b.close();
  }
});
