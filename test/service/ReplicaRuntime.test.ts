// Two service replicas (createServer in this process) on one PostgreSQL database: rewards through
// either one are released exactly once, a replica picks up the other's releases by notification,
// and both report the same ledger and guarantee. Policies whose releases are not one per fixed batch
// learn one reward per step (serialised learning), DGS-LinUCB's releasing decisions included, and
// horizon-bounded ones stop at their horizon counted in the shared database.
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

/** One replica on a fresh database, with every release commit's { rewards, releases, version } recorded. */
async function oneReplicaRecordingCommits(): Promise<{
  t: TestServer;
  commits: { rewards: number; releases: number; version: number }[];
}> {
  const commits: { rewards: number; releases: number; version: number }[] = [];
  const store = await PostgresStore.open(await pg.createDatabase(), {
    beforeReleaseCommit: (info) => void commits.push(info),
  });
  return { t: await startTestServer({ store, versionCheckMs: 0 }), commits };
}

/** A second reward of each decision in `ds` is refused (409 duplicate_reward). */
async function repeatsRefused(
  t: TestServer,
  model: string,
  ds: readonly { eventId: string }[],
): Promise<void> {
  for (const [i, d] of ds.entries()) {
    const again = await t.client.reward(model, { eventId: d.eventId, reward: 1 }).catch((e: unknown) => e);
    assert.ok(again instanceof Error && /409|duplicate/.test(String(again)), `repeat ${i}: ${String(again)}`);
  }
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

/** The policies learned one reward per step on replicas (replicaReleaseUnit.ts). */
const SERIALISED = [
  'jdp-linucb',
  'zcdp-episodic',
  'dgs-linucb',
  'adac-oful-zcdp',
  'rarely-switching-zcdp',
] as const;

const ARMS3 = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
  { id: 'c', features: [1, 0] },
];

for (const policy of SERIALISED) {
  test(`${policy}: serialised learning through two replicas: ledger releases = the policy's own, versions 1..V, each reward once`, async () => {
    const [a, b] = await twoReplicas();
    try {
      const spec = { policy, options: { dim: 2, horizon: 40, epsilon: 1, seed: 5 } };
      await a.client.createModel('s', spec);
      assert.equal((await b.client.createModel('s', spec)).created, false);
      const n = 14;
      let released = 0;
      // sequential rounds, decided and rewarded through alternating replicas
      for (let i = 0; i < n / 2; i++) {
        const [decider, rewarder] = i % 2 === 0 ? [a, b] : [b, a];
        const d = await decider.client.rank('s', { arms: ARMS3 });
        const r = await rewarder.client.reward('s', { eventId: d.eventId, reward: (i % 3) / 2 });
        assert.equal(r.status, 'recorded');
        if (r.released) released++;
      }
      // then concurrent decisions and rewards through both replicas (the database serialises them)
      const ds = await Promise.all(
        Array.from({ length: n / 2 }, (_, i) => (i % 2 === 0 ? a : b).client.rank('s', { arms: ARMS3 })),
      );
      const rs = await Promise.all(
        ds.map((d, i) => (i % 2 === 0 ? b : a).client.reward('s', { eventId: d.eventId, reward: i % 2 })),
      );
      assert.ok(rs.every((r) => r.status === 'recorded'));
      const ledger = await a.client.ledger('s');
      assert.deepEqual(ledger, await b.client.ledger('s'), 'one ledger, read by both replicas');
      const rows = ledger.releases;
      assert.deepEqual(
        rows.map((e) => e.version),
        rows.map((_, i) => i + 1),
        'versions 1..V without gaps',
      );
      const steps = rows.filter((e) => e.rewards > 0);
      assert.equal(steps.length, n, 'one step per reward');
      assert.ok(
        steps.every((e) => e.rewards === 1),
        'each step consumes exactly one reward',
      );
      assert.deepEqual(
        steps.map((e) => e.rounds),
        steps.map((_, i) => i + 1),
        'rounds advance by one per step',
      );
      const sum = rows.reduce((acc, e) => acc + e.releases, 0);
      for (const t of [a, b]) {
        const s = await t.client.status('s');
        assert.equal(s.privacy.releases, sum, "sum of the ledger rows' releases = the policy's own count");
        assert.equal(s.modelVersion, rows.length, 'the version counts steps');
        assert.equal(s.releasedRewards, n);
        assert.equal(s.pendingRewards, 0);
        assert.equal(s.rounds, n);
        assert.equal(s.budget.learning, true);
      }
      assert.ok(sum > 0, 'the policy released');
      assert.ok(released <= n / 2);
      // a private policy's last ledger row carries the guarantee the replicas report
      assert.deepEqual(rows.at(-1)!.spent.epsilon, (await a.client.status('s')).privacy.epsilon);
    } finally {
      await a.close();
      await b.close();
    }
  });
}

test('zcdp-episodic and rarely-switching-zcdp: a step records 0 releases when the policy released none (not one per reward)', async () => {
  const [a, b] = await twoReplicas();
  try {
    for (const policy of ['zcdp-episodic', 'rarely-switching-zcdp']) {
      await a.client.createModel(policy, { policy, options: { dim: 2, horizon: 64, epsilon: 1, seed: 2 } });
      for (let i = 0; i < 12; i++) {
        const d = await (i % 2 === 0 ? a : b).client.rank(policy, { arms: ARMS3 });
        await (i % 2 === 0 ? b : a).client.reward(policy, { eventId: d.eventId, reward: 1 });
      }
      const rows = (await b.client.ledger(policy)).releases;
      assert.equal(rows.length, 12, policy);
      assert.ok(
        rows.some((e) => e.releases === 0),
        `${policy}: ${rows.map((e) => e.releases)}`,
      );
      const sum = rows.reduce((acc, e) => acc + e.releases, 0);
      assert.ok(sum < 12, `${policy}: fewer releases than steps`);
      assert.equal((await a.client.status(policy)).privacy.releases, sum, policy);
    }
  } finally {
    await a.close();
    await b.close();
  }
});

test('dgs-linucb: a decision after new data releases (a ledger row of 0 rewards committed with the decision); one without new data does not', async () => {
  const [a, b] = await twoReplicas();
  try {
    await a.client.createModel('g', {
      policy: 'dgs-linucb',
      options: { dim: 2, horizon: 50, epsilon: 1, seed: 4 },
    });
    const d1 = await a.client.rank('g', { arms: ARMS3 }); // no data yet: nothing to release
    assert.equal(d1.modelVersion, 0);
    assert.deepEqual((await a.client.ledger('g')).releases, []);
    const r = await b.client.reward('g', { eventId: d1.eventId, reward: 1 });
    assert.equal(r.modelVersion, 1, 'the step of the reward');
    assert.equal(r.released, false, 'observe alone releases nothing for DGS-LinUCB');
    const d2 = await b.client.rank('g', { arms: ARMS3 }); // new data since the last release
    assert.equal(d2.modelVersion, 2, 'the decision is made from the estimate it released');
    const d3 = await a.client.rank('g', { arms: ARMS3 }); // no new data: the same estimate
    assert.equal(d3.modelVersion, 2);
    const rows = (await a.client.ledger('g')).releases;
    assert.deepEqual(
      rows.map((e) => [e.version, e.rewards, e.releases, e.rounds]),
      [
        [1, 1, 0, 1],
        [2, 0, 1, 1],
      ],
    );
    for (const t of [a, b]) {
      const s = await t.client.status('g');
      assert.equal(s.privacy.releases, 1);
      assert.equal(s.modelVersion, 2);
      assert.equal(s.decisions, 3);
    }
    const exported = await a.client.exportDecisions('g');
    assert.deepEqual(
      exported.map((l) => l.modelVersion),
      [0, 2, 2],
    );
  } finally {
    await a.close();
    await b.close();
  }
});

for (const policy of ['jdp-linucb', 'dgs-linucb'] as const) {
  test(`${policy}: the horizon is counted in the database: of horizon + 1 concurrent rewards through two replicas exactly one gets 409 horizon_exhausted`, async () => {
    const [a, b] = await twoReplicas();
    try {
      const horizon = 4;
      await a.client.createModel('h', { policy, options: { dim: 2, horizon, epsilon: 1, seed: 7 } });
      const ds = [];
      for (let i = 0; i <= horizon; i++)
        ds.push(await (i % 2 === 0 ? a : b).client.rank('h', { arms: ARMS3 }));
      const outcomes = await Promise.all(
        ds.map((d, i) =>
          (i % 2 === 0 ? b : a).raw('POST', '/v1/models/h/rewards', { eventId: d.eventId, reward: 1 }),
        ),
      );
      const statuses = outcomes.map((o) => o.status).sort();
      assert.deepEqual(statuses, [200, 200, 200, 200, 409], JSON.stringify(outcomes.map((o) => o.body)));
      assert.equal(outcomes.find((o) => o.status === 409)!.body.code, 'horizon_exhausted');
      for (const t of [a, b]) {
        const s = await t.client.status('h');
        assert.equal(s.rounds, horizon);
        assert.equal(s.releasedRewards, horizon);
        assert.equal(s.budget.boundedByHorizon, true);
        assert.equal(s.budget.roundsLeft, 0);
        assert.equal(s.budget.learning, false);
        assert.match(s.budget.note, /learns no more/);
        // decisions go on (without a round), and a later reward is refused too
        const d = await t.client.rank('h', { arms: ARMS3, withProbabilities: true });
        assert.equal(d.probabilities!.length, 3);
        const late = await t.raw('POST', '/v1/models/h/rewards', { eventId: d.eventId, reward: 1 });
        assert.deepEqual([late.status, late.body.code], [409, 'horizon_exhausted']);
      }
      const rows = (await a.client.ledger('h')).releases;
      assert.equal(
        rows.reduce((acc, e) => acc + e.rewards, 0),
        horizon,
        'exactly horizon rewards learned',
      );
    } finally {
      await a.close();
      await b.close();
    }
  });
}

test('a batched release (B = 3) rolled back in this process: the reward is acknowledged, the view stays at the committed version, and the next reward releases the batch', async () => {
  const url = await pg.createDatabase();
  let failures = 0;
  const seen: number[] = [];
  const store = await PostgresStore.open(url, {
    beforeReleaseCommit: (info) => {
      seen.push(info.version);
      if (failures > 0) {
        failures--;
        throw new Error('test: the connection broke before COMMIT');
      }
    },
  });
  const t = await startTestServer({ store, versionCheckMs: 3_600_000 });
  try {
    await t.client.createModel('c', {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 100, epsilon: 1, batchSize: 3, seed: 4 },
    });
    const ds = [];
    for (let i = 0; i < 3; i++) ds.push(await t.client.rank('c', { arms: ARMS }));
    const rs = [];
    for (let i = 0; i < 3; i++)
      rs.push(await t.client.reward('c', { eventId: ds[i]!.eventId, reward: i / 2 }));
    assert.deepEqual(
      rs.map((r) => [r.released, r.modelVersion]),
      [
        [false, 0],
        [false, 0],
        [true, 1],
      ],
    );
    failures = 1;
    const es = [];
    for (let i = 0; i < 4; i++) es.push(await t.client.rank('c', { arms: ARMS }));
    for (let i = 0; i < 2; i++) await t.client.reward('c', { eventId: es[i]!.eventId, reward: 1 });
    const r = await t.client.reward('c', { eventId: es[2]!.eventId, reward: 0 });
    assert.deepEqual([r.status, r.released], ['recorded', false], 'acknowledged, its release rolled back');
    assert.equal((await t.client.rank('c', { arms: ARMS })).modelVersion, 1);
    const r4 = await t.client.reward('c', { eventId: es[3]!.eventId, reward: 1 });
    assert.deepEqual([r4.released, r4.modelVersion], [true, 2]);
    const s = await t.client.status('c');
    assert.deepEqual(
      [s.privacy.releases, s.batchesReleased, s.releasedRewards, s.pendingRewards],
      [2, 2, 6, 1],
      'the rolled-back release is not counted',
    );
    assert.deepEqual(
      (await t.client.ledger('c')).releases.map((l) => [l.version, l.rewards]),
      [
        [1, 3],
        [2, 3],
      ],
    );
    assert.deepEqual(seen, [1, 2, 2]);
  } finally {
    await t.close();
  }
});

test('a release rolled back in this process does not stop the replica: the next steps restore the committed snapshot (restoreFromStore)', async () => {
  const url = await pg.createDatabase();
  let failures = 1;
  const store = await PostgresStore.open(url, {
    beforeReleaseCommit: () => {
      if (failures > 0) {
        failures--;
        throw new Error('test: the connection broke before COMMIT');
      }
    },
  });
  const t = await startTestServer({ store, versionCheckMs: 0 });
  try {
    // batch 1: every step is a release, so the rolled-back computation was ahead of the database
    await t.client.createModel('r', {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 100, epsilon: 1, batchSize: 1, seed: 2 },
    });
    const d1 = await t.client.rank('r', { arms: ARMS });
    const r1 = await t.client.reward('r', { eventId: d1.eventId, reward: 1 });
    assert.deepEqual([r1.status, r1.released], ['recorded', false], 'acknowledged, its release rolled back');
    assert.equal((await t.client.status('r')).pendingRewards, 1);
    const d2 = await t.client.rank('r', { arms: ARMS });
    assert.equal(d2.modelVersion, 0);
    const r2 = await t.client.reward('r', { eventId: d2.eventId, reward: 0 });
    assert.equal(r2.released, true);
    assert.equal(r2.modelVersion, 2, 'both pending rewards released, one step each');
    const s = await t.client.status('r');
    assert.equal(s.privacy.releases, 2, 'the rolled-back release is not counted');
    assert.equal(s.pendingRewards, 0);
    assert.equal((await t.client.rank('r', { arms: ARMS })).modelVersion, 2);
  } finally {
    await t.close();
  }
});

/** A store whose release notifications never arrive: a replica that missed every one of them. */
async function deafStore(url: string): Promise<PostgresStore> {
  const store = await PostgresStore.open(url, { migrate: false });
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'onRelease') return async () => async () => {};
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

for (const policy of ['jdp-linucb', 'dgs-linucb', 'adaprivate-ts'] as const) {
  test(`${policy}: a replica whose in-memory policy is behind another's release neither commits from it nor serves from it`, async () => {
    const url = await pg.createDatabase();
    const a = await startTestServer({ store: await PostgresStore.open(url), versionCheckMs: 3_600_000 });
    // b: no notification and no version check, so its view is behind after each of a's releases;
    // b0: no notification but a check before every request
    const b = await startTestServer({ store: await deafStore(url), versionCheckMs: 3_600_000 });
    const b0 = await startTestServer({ store: await deafStore(url), versionCheckMs: 0 });
    try {
      const options = { dim: 2, horizon: 40, epsilon: 1, seed: 5 };
      if (policy === 'adaprivate-ts') {
        await a.client.createModel('v', { policy, options: { ...options, batchSize: 1 } });
      } else await a.client.createModel('v', { policy, options });
      const n = 8;
      for (let i = 0; i < n; i++) {
        const t = [a, b, b0][i % 3]!;
        const d = await t.client.rank('v', { arms: ARMS });
        const r = await t.client.reward('v', { eventId: d.eventId, reward: i % 2 });
        assert.equal(r.status, 'recorded');
        // b0 keeps the policy it just committed in memory; after a's next release its next
        // decision must come from that release, not from the policy it kept
        const before = (await a.client.status('v')).modelVersion;
        if (t === b0) {
          const d2 = await a.client.rank('v', { arms: ARMS });
          await a.client.reward('v', { eventId: d2.eventId, reward: 1 });
          const moved = (await a.client.status('v')).modelVersion;
          assert.ok(moved > before, "a's reward released");
          // (at least: a DGS-LinUCB decision after new data releases, one version more)
          const seen = (await b0.client.rank('v', { arms: ARMS })).modelVersion;
          assert.ok(seen >= moved, `b0 serves version ${seen}, behind the stored ${moved}`);
        }
      }
      // nothing was committed from a stale policy: one lineage, versions and rounds without gaps or
      // repeats, and a replica loading the last snapshot counts exactly the ledger's releases
      const ledger = await a.client.ledger('v');
      const rows = ledger.releases;
      assert.deepEqual(
        rows.map((e) => e.version),
        rows.map((_, i) => i + 1),
      );
      const steps = rows.filter((e) => e.rewards > 0);
      assert.deepEqual(
        steps.map((e) => e.rounds),
        steps.map((_, i) => i + 1),
        'each reward learned once, on top of every earlier one',
      );
      const c = await startTestServer({ store: await PostgresStore.open(url, { migrate: false }) });
      try {
        const s = await c.client.status('v');
        assert.equal(s.modelVersion, rows.length);
        assert.equal(s.rounds, steps.length);
        assert.equal(
          s.privacy.releases,
          rows.reduce((acc, e) => acc + e.releases, 0),
          "the stored policy's own count of releases = the ledger's",
        );
      } finally {
        await c.close();
      }
    } finally {
      await a.close();
      await b.close();
      await b0.close();
    }
  });
}

test('jdp-linucb: concurrent rewards on one replica (steps committed together when they queue): one ledger row per reward, versions and rounds 1..n, the commits carry every reward once', async () => {
  const { t, commits } = await oneReplicaRecordingCommits();
  try {
    await t.client.createModel('g', {
      policy: 'jdp-linucb',
      options: { dim: 2, horizon: 100, epsilon: 1, seed: 4 },
    });
    const n = 12;
    const ds = await Promise.all(Array.from({ length: n }, () => t.client.rank('g', { arms: ARMS3 })));
    const rs = await Promise.all(
      ds.map((d, i) => t.client.reward('g', { eventId: d.eventId, reward: (i % 3) / 2 })),
    );
    assert.ok(rs.every((r) => r.status === 'recorded'));
    assert.deepEqual(
      rs.map((r) => r.modelVersion).sort((x, y) => x - y),
      Array.from({ length: n }, (_, i) => i + 1),
      'each reward answered with its own step version',
    );
    const rows = (await t.client.ledger('g')).releases;
    assert.deepEqual(
      rows.map((e) => [e.version, e.rounds, e.rewards]),
      Array.from({ length: n }, (_, i) => [i + 1, i + 1, 1]),
    );
    assert.equal(
      commits.reduce((s, c) => s + c.rewards, 0),
      n,
      'every reward in exactly one commit',
    );
    assert.equal(
      commits.reduce((s, c) => s + c.releases, 0),
      rows.reduce((s, e) => s + e.releases, 0),
    );
    assert.equal(commits.at(-1)!.version, n);
    const s = await t.client.status('g');
    assert.equal(
      s.privacy.releases,
      rows.reduce((acc, e) => acc + e.releases, 0),
    );
    assert.deepEqual(rows.at(-1)!.spent.epsilon, s.privacy.epsilon);
    await repeatsRefused(t, 'g', ds);
  } finally {
    await t.close();
  }
});

test('adaprivate-ts: 24 concurrent rewards on one replica (B = 3; rewards that find a full batch join a queued release pass): 8 releases of 3, each reward in exactly one, nothing left pending', {
  timeout: 120_000,
}, async () => {
  const { t, commits } = await oneReplicaRecordingCommits();
  try {
    await t.client.createModel('c', {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 3, seed: 6 },
    });
    const n = 24;
    const ds = await Promise.all(Array.from({ length: n }, () => t.client.rank('c', { arms: ARMS })));
    const rs = await Promise.all(
      ds.map((d, i) => t.client.reward('c', { eventId: d.eventId, reward: (i % 4) / 3 })),
    );
    assert.ok(rs.every((r) => r.status === 'recorded'));
    // a pass reports the releases it made; the rewards that joined it answer released: false
    const reported = rs.filter((r) => r.released).length;
    assert.ok(reported >= 1 && reported <= n / 3, `${reported} answers say released`);
    assert.deepEqual(
      commits.map((c) => [c.version, c.rewards, c.releases]),
      Array.from({ length: n / 3 }, (_, i) => [i + 1, 3, 1]),
      'one commit per batch of 3, versions 1..8, one privacy release each',
    );
    const rows = (await t.client.ledger('c')).releases;
    assert.deepEqual(
      rows.map((e) => [e.version, e.rewards, e.releases, e.rounds]),
      Array.from({ length: n / 3 }, (_, i) => [i + 1, 3, 1, 3 * (i + 1)]),
    );
    const s = await t.client.status('c');
    assert.equal(s.pendingRewards, 0);
    assert.equal(s.releasedRewards, n);
    assert.equal(s.batchesReleased, n / 3);
    assert.equal(s.privacy.releases, n / 3);
    assert.deepEqual(rows.at(-1)!.spent.epsilon, s.privacy.epsilon);
    await repeatsRefused(t, 'c', ds);
  } finally {
    await t.close();
  }
});

/**
 * A PostgresStore whose release commits announce themselves (the notification a LISTEN connection
 * would deliver) before their answer reaches the replica, and which counts the replica's version
 * reads (`modelVersion`: the first read of a view refresh).
 */
async function storeAnnouncingFirst(
  url: string,
): Promise<{ store: PostgresStore; versionReads: () => number }> {
  const store = await PostgresStore.open(url);
  let listener: ((model: string, version: number) => void) | null = null;
  const onRelease = store.onRelease.bind(store);
  store.onRelease = (l, onError) => {
    listener = l;
    return onRelease(l, onError);
  };
  const storedVersion = store.modelVersion.bind(store);
  let reads = 0;
  store.modelVersion = (model) => {
    reads++;
    return storedVersion(model);
  };
  const announceFirst = <A extends unknown[], R>(commit: (model: string, ...rest: A) => Promise<R>) =>
    async function (this: unknown, model: string, ...rest: A): Promise<R> {
      const out = await commit.call(store, model, ...rest);
      const v = await storedVersion(model);
      if (v !== null) listener?.(model, v);
      // the notification is handled (ModelRegistry: a promise's then) before the answer returns
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      return out;
    };
  store.stepRewards = announceFirst(store.stepRewards);
  store.releasePending = announceFirst(store.releasePending);
  store.decideMany = announceFirst(store.decideMany);
  return { store, versionReads: () => reads };
}

for (const [policy, options] of [
  ['jdp-linucb', {}],
  ['zcdp-episodic', {}],
  ['dgs-linucb', {}],
  ['adaprivate-ts', { batchSize: 2 }],
] as const) {
  test(`${policy}: the notification of this replica's own commit, arriving before the commit's answer, does not reload the view`, async () => {
    const { store, versionReads } = await storeAnnouncingFirst(await pg.createDatabase());
    const t = await startTestServer({ store, versionCheckMs: 3_600_000 });
    try {
      const spec = { policy, options: { dim: 2, horizon: 100, epsilon: 1, seed: 5, ...options } };
      await t.client.createModel('own', spec);
      const readsBefore = versionReads();
      let version = 0;
      for (let i = 0; i < 8; i++) {
        const d = await t.client.rank('own', { arms: ARMS3 });
        assert.ok(d.modelVersion >= version, 'the view never goes back');
        version = d.modelVersion;
        await t.client.reward('own', { eventId: d.eventId, reward: i % 2 });
      }
      const status = await t.client.status('own');
      assert.ok(status.modelVersion >= 4, `the replica committed releases (version ${status.modelVersion})`);
      // status reads the version once itself (a forced check); nothing else may
      assert.equal(versionReads() - readsBefore, 1, 'no view refresh for its own releases');
      const last = await t.client.rank('own', { arms: ARMS3 });
      // (DGS-LinUCB's decision after new data is itself a release, one version on)
      const releasing = policy === 'dgs-linucb' ? 1 : 0;
      assert.equal(
        last.modelVersion,
        status.modelVersion + releasing,
        'the view is the last committed release',
      );
    } finally {
      await t.close();
    }
  });
}
