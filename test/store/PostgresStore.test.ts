import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import type { ModelState, ReleaseCommitInfo, ReleaseInput } from '../../src/store/index.js';
import { PostgresStore, StoreConflictError } from '../../src/store/index.js';
import { ANALYZE_AFTER_DECISIONS, migratePostgres } from '../../src/store/PostgresStore.js';
import { schemaVersionOf } from '../../src/store/schema.js';
import { type PostgresServer, startPostgres } from '../support/postgres.js';
import { createSumModel, oneArmDecision, sumRelease } from '../support/storeFixtures.js';
import { storeContract } from './storeContract.js';

/** The schema version of a PostgreSQL database (step 6 is SQLite's alone). */
const SCHEMA_VERSION = schemaVersionOf('postgres');

let server: PostgresServer;
before(async () => {
  server = await startPostgres();
});
after(async () => {
  await server?.stop();
});

storeContract('postgres', async () => PostgresStore.open(await server.createDatabase()));

const reward = (model: string, eventId: string, r: number) => ({
  model,
  eventId,
  reward: r,
  time: 20,
  source: 'given' as const,
  logReward: false,
});

/** {@link sumRelease} that also records which events each computation saw. */
function sumReleaseSeen(seen: string[][]) {
  return (state: ModelState): ReleaseInput => {
    seen.push(state.pending.map((p) => p.eventId));
    return sumRelease(state);
  };
}

test('PostgresStore: schema version check, the migrate step, and a newer database refused', async () => {
  const url = await server.createDatabase();
  await assert.rejects(PostgresStore.open(url, { migrate: false }), /schema version 0.*adaprivate migrate/);
  const migrations = await Promise.all([migratePostgres(url), migratePostgres(url), migratePostgres(url)]);
  // concurrent migrators serialise on the advisory lock: exactly one finds the empty database
  assert.deepEqual(migrations.map((m) => m.from).sort(), [0, SCHEMA_VERSION, SCHEMA_VERSION]);
  assert.deepEqual(await migratePostgres(url), { from: SCHEMA_VERSION, to: SCHEMA_VERSION });
  const store = await PostgresStore.open(url, { migrate: false });
  await store.close();
  await store.close(); // idempotent
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const storage = async () =>
    (
      await client.query<{ s: string }>(
        "SELECT attstorage AS s FROM pg_attribute WHERE attrelid = 'models'::regclass AND attname = 'snapshot'",
      )
    ).rows[0]?.s;
  assert.equal(await storage(), 'e', 'schema 7: snapshots stored uncompressed (EXTERNAL)');
  // a database of schema 5 (before the two one-engine steps) is brought to 7 by step 7 alone
  await client.query('ALTER TABLE models ALTER COLUMN snapshot SET STORAGE EXTENDED');
  await client.query("UPDATE meta SET value = '5' WHERE key = 'schema_version'");
  await assert.rejects(PostgresStore.open(url, { migrate: false }), /schema version 5, .* needs 7/);
  assert.deepEqual(await migratePostgres(url), { from: 5, to: 7 });
  assert.equal(await storage(), 'e');
  assert.equal(
    await client.query('SELECT 1 FROM decision_features').catch(() => 'none'),
    'none',
    'no step 6 on PostgreSQL',
  );
  await client.query("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  await client.end();
  await assert.rejects(PostgresStore.open(url), (e: Error) => {
    assert.match(
      e.message,
      new RegExp(`schema version 99; this version of adaprivate reads up to ${SCHEMA_VERSION}\\.`),
    );
    assert.doesNotMatch(e.message, /postgres:[^*@]+@/, 'the password must not appear in the message');
    return true;
  });
  await assert.rejects(
    PostgresStore.open(url, { poolSize: 0 }),
    /poolSize must be a positive integer. Got 0/,
  );
});

test('PostgresStore: the release hook runs inside the transaction (a throw rolls the release back)', async () => {
  let armed = true;
  const url = await server.createDatabase();
  const store = await PostgresStore.open(url, {
    beforeReleaseCommit: () => {
      if (armed) throw new Error('crash here');
    },
  });
  const heard: [string, number][] = [];
  const unlisten = await store.onRelease((model, version) => heard.push([model, version]));
  try {
    await createSumModel(store, 'm', 2);
    await store.recordReward(reward('m', 'e0', 1), null);
    const rel = { version: 1, snapshot: 's1', spent: {}, releases: 1, rounds: 2 };
    await assert.rejects(store.recordReward(reward('m', 'e1', 0.5), rel), /crash here/);
    const st = await store.loadModelState('m');
    assert.equal(st?.version, 0);
    assert.deepEqual(
      st?.pending.map((p) => p.eventId),
      ['e0'],
    );
    assert.equal((await store.getDecision('m', 'e1'))?.rewardState, 'none');
    assert.deepEqual(await store.ledger('m'), []);
    armed = false;
    assert.equal(await store.recordReward(reward('m', 'e1', 0.5), rel), 'recorded');
    assert.equal((await store.ledger('m'))[0]?.rewards, 2);
    // the notification of the rolled-back release was never delivered, the committed one was
    const end = Date.now() + 20_000;
    while (heard.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await store.ping();
    assert.deepEqual(heard, [['m', 1]]);
    await unlisten();
  } finally {
    await store.close();
  }
});

test('PostgresStore: racing releases of one version from two replicas: one commits, one conflicts', async () => {
  const url = await server.createDatabase();
  const [a, b] = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
  try {
    await createSumModel(a, 'm', 4);
    const rel = { version: 1, snapshot: 's1', spent: {}, releases: 1, rounds: 2 };
    const results = await Promise.allSettled([
      a.recordReward(reward('m', 'e0', 1), rel),
      b.recordReward(reward('m', 'e1', 1), rel),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r) => r.status === 'rejected');
    assert.equal(ok.length, 1);
    assert.equal(failed.length, 1);
    assert.ok((failed[0] as PromiseRejectedResult).reason instanceof StoreConflictError);
    assert.equal((await a.ledger('m')).length, 1);
    assert.equal((await b.loadModelState('m'))?.version, 1);
  } finally {
    await a.close();
    await b.close();
  }
});

test('PostgresStore.releaseBatch: three replicas racing, every batch released exactly once, every reward once', async () => {
  const url = await server.createDatabase();
  const replicas = await Promise.all([0, 1, 2].map(() => PostgresStore.open(url, { poolSize: 4 })));
  const batch = 7;
  const n = 63;
  try {
    await createSumModel(replicas[0]!, 'm', n);
    const seen: string[][] = [];
    const compute = sumReleaseSeen(seen);
    const rewards = Array.from({ length: n }, (_, i) => ((i * 37) % 101) / 100);
    let attempts = 0;
    // every reward goes through one replica, and then every replica tries to release at once
    await Promise.all(
      rewards.map(async (r, i) => {
        const via = replicas[i % 3]!;
        assert.equal(await via.recordReward(reward('m', `e${i}`, r), null), 'recorded');
        await Promise.all(
          replicas.map(async (rep) => {
            attempts++;
            await rep.releaseBatch('m', batch, 30, compute);
          }),
        );
      }),
    );
    // rewards left pending by the last races are released by one more round of attempts
    for (const rep of replicas) while ((await rep.releaseBatch('m', batch, 30, compute)) !== null);
    const ledger = await replicas[1]!.ledger('m');
    assert.deepEqual(
      ledger.map((l) => l.version),
      Array.from({ length: n / batch }, (_, i) => i + 1),
    );
    assert.ok(ledger.every((l) => l.rewards === batch));
    assert.ok(attempts > ledger.length * 3, 'the replicas really raced');
    // the computations that committed saw disjoint batches covering every reward once
    assert.equal(seen.length >= ledger.length, true);
    const state = await replicas[2]!.loadModelState('m');
    assert.deepEqual(state?.pending, []);
    const snap = JSON.parse(state?.snapshot ?? '{}') as { sum: number; rounds: number };
    assert.equal(snap.rounds, n);
    const exact = rewards.reduce((s, r) => s + r, 0);
    assert.ok(Math.abs(snap.sum - exact) < 1e-9, `released sum ${snap.sum}, rewards ${exact}`);
    const released = await replicas[0]!.exportDecisions('m', { limit: n + 1 });
    assert.ok(released.every((d) => d.rewardState === 'released' && d.release !== null));
    const byRelease = new Map<number, number>();
    for (const d of released) byRelease.set(d.release!, (byRelease.get(d.release!) ?? 0) + 1);
    assert.deepEqual([...byRelease.values()], Array(n / batch).fill(batch));
    assert.deepEqual(await replicas[0]!.counts('m'), {
      decisions: n,
      pendingRewards: 0,
      releasedRewards: n,
      defaultRewards: 0,
    });
  } finally {
    await Promise.all(replicas.map((r) => r.close()));
  }
});

test('PostgresStore.releaseBatch: nothing happens while the batch is incomplete or compute declines', async () => {
  const url = await server.createDatabase();
  const store = await PostgresStore.open(url);
  try {
    await createSumModel(store, 'm', 3);
    await store.recordReward(reward('m', 'e0', 1), null);
    let called = 0;
    assert.equal(
      await store.releaseBatch('m', 2, 1, () => {
        called++;
        return null;
      }),
      null,
    );
    assert.equal(called, 0, 'compute must not see an incomplete batch');
    await store.recordReward(reward('m', 'e1', 0), null);
    assert.equal(
      await store.releaseBatch('m', 2, 1, () => {
        called++;
        return null;
      }),
      null,
    );
    assert.equal(called, 1);
    assert.equal((await store.loadModelState('m'))?.pending.length, 2);
    await assert.rejects(
      store.releaseBatch('m', 2, 1, (s) => ({ ...sumRelease(s), version: 5 })),
      StoreConflictError,
    );
    await assert.rejects(
      store.releaseBatch('m', 0, 1, () => null),
      /batchSize must be a positive integer/,
    );
    assert.equal(await store.releaseBatch('nope', 1, 1, () => null), null);
    const heard: [string, number][] = [];
    const other = await PostgresStore.open(url);
    const unlisten = await other.onRelease((model, version) => heard.push([model, version]));
    const row = await store.releaseBatch('m', 2, 1, sumRelease);
    assert.deepEqual(row, {
      model: 'm',
      version: 1,
      time: 1,
      releases: 1,
      rounds: 2,
      rewards: 2,
      spent: { releases: 1 },
    });
    assert.equal(await store.modelVersion('m'), 1);
    // another replica hears of the committed release (and of no rolled-back one)
    const end = Date.now() + 20_000;
    while (heard.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(heard, [['m', 1]]);
    await unlisten();
    await other.close();
    await assert.rejects(store.backup('/tmp/x'), /pg_dump/);
  } finally {
    await store.close();
  }
});

test('PostgresStore.recordPending: one statement; recorded once under a race, duplicate and unknown events write nothing', async () => {
  const url = await server.createDatabase();
  const a = await PostgresStore.open(url);
  const b = await PostgresStore.open(url, { migrate: false });
  try {
    await createSumModel(a, 'm', 6);
    assert.deepEqual(await a.recordPending(reward('m', 'e0', 1)), { outcome: 'recorded', pending: 1 });
    assert.deepEqual(await b.recordPending(reward('m', 'e1', 0)), { outcome: 'recorded', pending: 2 });
    assert.deepEqual(await a.recordPending(reward('m', 'e0', 0)), { outcome: 'duplicate', pending: 2 });
    assert.deepEqual(await a.recordPending(reward('m', 'nope', 0)), { outcome: 'unknown-event', pending: 2 });
    // two replicas racing for the same events: each event recorded by exactly one
    const outcomes = await Promise.all(
      ['e2', 'e3', 'e4', 'e5'].flatMap((e) => [a, b].map((s) => s.recordPending(reward('m', e, 0.5)))),
    );
    assert.equal(outcomes.filter((o) => o.outcome === 'recorded').length, 4);
    assert.equal(outcomes.filter((o) => o.outcome === 'duplicate').length, 4);
    assert.equal(await a.pendingCount('m'), 6);
    const state = await a.loadModelState('m');
    assert.deepEqual(state?.pending.map((p) => p.eventId).sort(), ['e0', 'e1', 'e2', 'e3', 'e4', 'e5']);
    assert.equal(state?.pending[0]?.reward, 1, 'the first reward of e0 is kept');
    assert.equal((await a.getDecision('m', 'e0'))?.rewardState, 'pending');
    assert.equal((await a.releasedState('m'))?.version, 0);
  } finally {
    await a.close();
    await b.close();
  }
});

test('PostgresStore.recordPending with a horizon: released + pending rounds never exceed it across two stores racing', async () => {
  const url = await server.createDatabase();
  const a = await PostgresStore.open(url);
  const b = await PostgresStore.open(url, { migrate: false });
  try {
    await createSumModel(a, 'm', 8);
    assert.deepEqual(await a.recordPending(reward('m', 'e0', 1), 5), { outcome: 'recorded', pending: 1 });
    assert.deepEqual(await b.recordPending(reward('m', 'e0', 1), 5), { outcome: 'duplicate', pending: 1 });
    assert.deepEqual(await b.recordPending(reward('m', 'nope', 1), 5), {
      outcome: 'unknown-event',
      pending: 1,
    });
    // a release moves the pending reward into the model's rounds: still counted
    assert.notEqual(await a.releaseBatch('m', 1, 2, sumRelease), null);
    assert.equal((await a.releasedState('m'))?.rounds, 1);
    const outcomes = await Promise.all(
      ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'].map((e, i) =>
        (i % 2 === 0 ? a : b).recordPending(reward('m', e, 0), 5),
      ),
    );
    assert.deepEqual(outcomes.map((o) => o.outcome).sort(), [
      'horizon-exhausted',
      'horizon-exhausted',
      'recorded',
      'recorded',
      'recorded',
      'recorded',
    ]);
    assert.equal(await a.pendingCount('m'), 4, '1 released + 4 pending = the horizon');
    // a refused reward leaves its decision without a reward
    const refused = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'].filter(
      (_, i) => outcomes[i]!.outcome !== 'recorded',
    );
    for (const e of refused) assert.equal((await a.getDecision('m', e))?.rewardState, 'none', e);
    // the event's own outcome comes first
    assert.deepEqual(await a.recordPending(reward('m', 'e1', 0), 5), {
      outcome: outcomes[0]!.outcome === 'recorded' ? 'duplicate' : 'horizon-exhausted',
      pending: 4,
    });
  } finally {
    await a.close();
    await b.close();
  }
});

test('PostgresStore.decideSerialised: the decision and the release it made commit together; an existing event id writes neither', async () => {
  const url = await server.createDatabase();
  const store = await PostgresStore.open(url);
  try {
    await createSumModel(store, 'm', 0);
    const release = (version: number): ReleaseInput => ({
      version,
      snapshot: JSON.stringify({ sum: 0, rounds: 0, estimate: version }),
      spent: { releases: version },
      releases: 1,
      rounds: 0,
    });
    const seen: number[] = [];
    const first = await store.decideSerialised('m', 7, (st) => {
      seen.push(st.version);
      return { decision: oneArmDecision('m', 'd1'), release: release(st.version + 1) };
    });
    assert.deepEqual(first, {
      inserted: true,
      release: {
        model: 'm',
        version: 1,
        time: 7,
        releases: 1,
        rounds: 0,
        rewards: 0,
        spent: { releases: 1 },
      },
    });
    assert.equal(await store.modelVersion('m'), 1);
    assert.equal(
      (await store.releasedState('m'))?.snapshot,
      JSON.stringify({ sum: 0, rounds: 0, estimate: 1 }),
    );
    // no release: the decision only
    assert.deepEqual(
      await store.decideSerialised('m', 8, () => ({ decision: oneArmDecision('m', 'd2'), release: null })),
      { inserted: true, release: null },
    );
    assert.equal(await store.modelVersion('m'), 1);
    // an existing event id: the release computed with it is rolled back too
    assert.deepEqual(
      await store.decideSerialised('m', 9, (st) => ({
        decision: oneArmDecision('m', 'd1'),
        release: release(st.version + 1),
      })),
      { inserted: false, release: null },
    );
    assert.equal(await store.modelVersion('m'), 1);
    // a release that does not follow the stored version: nothing written
    await assert.rejects(
      store.decideSerialised('m', 9, () => ({ decision: oneArmDecision('m', 'd3'), release: release(5) })),
      StoreConflictError,
    );
    assert.equal(await store.getDecision('m', 'd3'), null);
    assert.equal(await store.decideSerialised('nope', 1, () => assert.fail('no model, no compute')), null);
    assert.deepEqual(
      (await store.ledger('m')).map((r) => [r.version, r.rewards, r.releases]),
      [[1, 0, 1]],
    );
    assert.equal((await store.counts('m')).decisions, 2);
    assert.deepEqual(seen, [0]);
  } finally {
    await store.close();
  }
});

test('PostgresStore.decideSerialised: decisions racing with releases of one model from two stores are serialised (versions 1..V once each)', async () => {
  const url = await server.createDatabase();
  const a = await PostgresStore.open(url);
  const b = await PostgresStore.open(url, { migrate: false });
  try {
    await createSumModel(a, 'm', 0);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? a : b).decideSerialised('m', i, (st) => ({
          decision: oneArmDecision('m', `d${i}`),
          release: {
            version: st.version + 1,
            snapshot: JSON.stringify({ sum: 0, rounds: 0 }),
            spent: { releases: st.version + 1 },
            releases: 1,
            rounds: 0,
          },
        })),
      ),
    );
    assert.ok(results.every((r) => r?.inserted === true && r.release !== null));
    assert.deepEqual(
      results.map((r) => r!.release!.version).sort((x, y) => x - y),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    assert.equal(await a.modelVersion('m'), 10);
  } finally {
    await a.close();
    await b.close();
  }
});

test('PostgresStore: the release hook fires in every transaction that commits a ledger row, naming it (batch or step, decision)', async () => {
  const url = await server.createDatabase();
  const seen: ReleaseCommitInfo[] = [];
  const store = await PostgresStore.open(url, { beforeReleaseCommit: (info) => void seen.push(info) });
  try {
    await createSumModel(store, 'm', 3);
    // a serialised-learning step: releaseBatch of one reward, whatever the step released (here 0)
    await store.recordPending(reward('m', 'e0', 1));
    const step = (st: ModelState): ReleaseInput => ({ ...sumRelease(st), releases: 0 });
    assert.notEqual(await store.releaseBatch('m', 1, 5, step), null);
    // a batch of two, one release
    await store.recordPending(reward('m', 'e1', 0));
    await store.recordPending(reward('m', 'e2', 1));
    assert.notEqual(await store.releaseBatch('m', 2, 6, sumRelease), null);
    // a decision committed with its release (DGS-LinUCB), then one without a release, then an
    // existing event id (rolled back before its writes: no hook)
    const release = (version: number): ReleaseInput => ({
      version,
      snapshot: JSON.stringify({ sum: 2, rounds: 3 }),
      spent: { releases: version },
      releases: 1,
      rounds: 3,
    });
    await store.decideSerialised('m', 7, (st) => ({
      decision: oneArmDecision('m', 'd1'),
      release: release(st.version + 1),
    }));
    await store.decideSerialised('m', 8, () => ({ decision: oneArmDecision('m', 'd2'), release: null }));
    await store.decideSerialised('m', 9, (st) => ({
      decision: oneArmDecision('m', 'd1'),
      release: release(st.version + 1),
    }));
    assert.deepEqual(seen, [
      { kind: 'rewards', version: 1, rewards: 1, releases: 0 },
      { kind: 'rewards', version: 2, rewards: 2, releases: 1 },
      { kind: 'decision', version: 3, rewards: 0, releases: 1 },
    ]);
    assert.equal((await store.ledger('m')).length, 3);
  } finally {
    await store.close();
  }
});

test('PostgresStore.recordPending: concurrent rewards share statements; each answered recorded, duplicate or unknown', async () => {
  const url = await server.createDatabase();
  const a = await PostgresStore.open(url);
  try {
    await createSumModel(a, 'm', 20);
    // sent at once: the first goes out alone, the others wait for it and share the next statement
    const ids = [...Array.from({ length: 20 }, (_, i) => `e${i}`), 'e3', 'nope'];
    const outs = await Promise.all(ids.map((e, i) => a.recordPending(reward('m', e, i % 2))));
    assert.deepEqual(
      outs.map((o) => o.outcome),
      [...ids.slice(0, 20).map(() => 'recorded'), 'duplicate', 'unknown-event'],
    );
    const st = a.stats();
    assert.ok(st.largestRewardBatch > 1 && st.rewardStatements < ids.length, JSON.stringify(st));
    assert.equal(st.rewardsBatched, ids.length);
    const state = await a.loadModelState('m');
    assert.deepEqual(
      state?.pending.map((p) => [p.eventId, p.reward]),
      ids.slice(0, 20).map((e, i) => [e, i % 2]),
      'each once, with its own value, in arrival order',
    );
    assert.equal(Math.max(...outs.map((o) => o.pending)), 20);
  } finally {
    await a.close();
  }
});

test('PostgresStore.releasePending, stepReward, decideAt: computed at version v, committed once in one call; at a moved version nothing is written', async () => {
  const url = await server.createDatabase();
  // a migrates the fresh database; b (a second replica that does not migrate) opens after it: opened
  // together, b could read the schema version before a's migration committed
  const a = await PostgresStore.open(url);
  const b = await PostgresStore.open(url, { migrate: false });
  try {
    await createSumModel(a, 'm', 8);
    for (const e of ['e0', 'e1']) await a.recordPending(reward('m', e, 1));
    // two replicas compute the release of the same batch: one commits, the other is stale
    const [ba, bb] = await Promise.all([a.pendingBatch('m', 2), b.pendingBatch('m', 2)]);
    assert.deepEqual(
      ba?.pending.map((p) => p.eventId),
      ['e0', 'e1'],
    );
    const rel = (v: number, rounds: number) => ({
      version: v,
      snapshot: `s${v}`,
      spent: {},
      releases: 1,
      rounds,
    });
    const outs = await Promise.all([
      a.releasePending('m', ba!, rel(1, 2), 5),
      b.releasePending('m', bb!, rel(1, 2), 5),
    ]);
    assert.equal(outs.filter((o) => o === 'stale').length, 1);
    assert.equal(outs.filter((o) => typeof o === 'object' && o.version === 1 && o.rewards === 2).length, 1);
    assert.equal(await a.pendingCount('m'), 0);
    assert.deepEqual(
      (await a.ledger('m')).map((l) => [l.version, l.rewards, l.rounds]),
      [[1, 2, 2]],
    );
    assert.equal((await a.getDecision('m', 'e1'))?.rewardState, 'released');
    await assert.rejects(a.releasePending('m', ba!, rel(3, 2), 5), StoreConflictError);

    // a step: stale at an old version, unknown and duplicate events, then recorded once
    assert.equal(await a.stepReward(reward('m', 'e2', 1), 0, null, rel(1, 1)), 'stale');
    assert.equal(await a.stepReward(reward('m', 'nope', 1), 1, null, rel(2, 3)), 'unknown-event');
    assert.equal(await a.stepReward(reward('m', 'e0', 1), 1, null, rel(2, 3)), 'duplicate');
    assert.equal(await a.stepReward(reward('m', 'e2', 1), 1, 2, rel(2, 3)), 'horizon-exhausted');
    assert.equal(await a.stepReward(reward('m', 'e2', 1), 1, null, rel(2, 2)), 'stale', 'rounds checked too');
    const steps = await Promise.all([
      a.stepReward(reward('m', 'e2', 1), 1, null, rel(2, 3)),
      b.stepReward(reward('m', 'e3', 1), 1, null, rel(2, 3)),
    ]);
    assert.deepEqual([...steps].sort(), ['recorded', 'stale']);
    // with a reward pending, a step is refused ('pending': the older reward goes first)
    await a.recordPending(reward('m', 'e4', 0));
    assert.equal(await a.stepReward(reward('m', 'e5', 1), 2, null, rel(3, 4)), 'pending');
    assert.equal((await a.getDecision('m', 'e5'))?.rewardState, 'none');

    // a decision with its release: stale, then inserted with the release, then the event exists
    const d = { ...oneArmDecision('m', 'd1'), modelVersion: 3, clipped: 1 };
    assert.equal(await a.decideAt(1, d, rel(2, 3)), 'stale');
    assert.equal(await a.decideAt(2, d, { ...rel(3, 3), releases: 1 }), 'inserted');
    assert.equal(await b.decideAt(3, d, rel(4, 3)), 'exists');
    assert.equal(await b.decideAt(3, { ...oneArmDecision('m', 'd2'), modelVersion: 3 }, null), 'inserted');
    assert.equal(await a.decideAt(3, oneArmDecision('gone', 'd3'), null), 'gone');
    assert.equal((await a.getDecision('m', 'd1'))?.clipped, 1, 'its clipped candidate count is stored');
    const ledger = await a.ledger('m');
    assert.deepEqual(
      ledger.map((l) => [l.version, l.rewards]),
      [
        [1, 2],
        [2, 1],
        [3, 0],
      ],
    );
    assert.equal((await a.releasedState('m'))?.snapshot, 's3');
  } finally {
    await a.close();
    await b.close();
  }
});

test('PostgresStore.insertDecision: concurrent decisions share statements; each inserted once, bit-exact, a repeat refused', async () => {
  const url = await server.createDatabase();
  const a = await PostgresStore.open(url);
  try {
    await createSumModel(a, 'm', 0);
    const ids = [...Array.from({ length: 12 }, (_, i) => `d${i}`), 'd3'];
    const row = (e: string, i: number) => ({
      ...oneArmDecision('m', e, 100 + i),
      features: new Float64Array([i + 0.1]),
      chosenFeatures: new Float64Array([i + 0.1]),
      unit: i % 2 === 0 ? `u${i}` : null,
    });
    const outs = await Promise.all(ids.map((e, i) => a.insertDecision(row(e, i))));
    assert.deepEqual(outs, [...ids.slice(0, 12).map(() => true), false]);
    const st = a.stats();
    assert.ok(st.decisionStatements < ids.length && st.decisionsBatched === ids.length, JSON.stringify(st));
    for (let i = 0; i < 12; i++) {
      const d = await a.getDecision('m', `d${i}`);
      assert.deepEqual(
        [d?.time, d?.features[0], d?.chosenFeatures[0], d?.unit ?? null],
        [100 + i, i + 0.1, i + 0.1, i % 2 === 0 ? `u${i}` : null],
      );
    }
    // several at once for a model that does not exist: each refused
    const gone = await Promise.allSettled(
      ['x1', 'x2', 'x3'].map((e) => a.insertDecision(oneArmDecision('none', e))),
    );
    assert.ok(gone.every((g) => g.status === 'rejected'));
  } finally {
    await a.close();
  }
});

test(`PostgresStore: a new database's decisions table gets its statistics once ${ANALYZE_AFTER_DECISIONS} decisions are stored, so lookups by event id use its key`, async () => {
  const url = await server.createDatabase();
  const a = await PostgresStore.open(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const reltuples = async () =>
    (
      await client.query<{ n: number }>(
        "SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'decisions'::regclass",
      )
    ).rows[0]!.n;
  try {
    await createSumModel(a, 'm', 0);
    const insert = async (from: number, to: number) => {
      for (let i = from; i < to; i += 100) {
        const ids = Array.from({ length: Math.min(100, to - i) }, (_, j) => `e${i + j}`);
        const outs = await Promise.all(ids.map((e) => a.insertDecision(oneArmDecision('m', e, i))));
        assert.ok(outs.every((o) => o));
      }
    };
    await insert(0, ANALYZE_AFTER_DECISIONS - 1);
    // never analyzed (-1), or by autovacuum while smaller: not yet statistics for that many rows
    assert.ok((await reltuples()) < ANALYZE_AFTER_DECISIONS, `reltuples ${await reltuples()}`);
    await insert(ANALYZE_AFTER_DECISIONS - 1, ANALYZE_AFTER_DECISIONS + 50);
  } finally {
    await a.close(); // waits for the ANALYZE in flight
  }
  try {
    assert.ok((await reltuples()) >= ANALYZE_AFTER_DECISIONS, `reltuples ${await reltuples()}`);
    // what the cached plans then do: the event id's key, not a scan of the model's decisions
    const plan = await client.query<{ 'QUERY PLAN': string }>(
      "EXPLAIN SELECT 1 FROM decisions WHERE model = 'm' AND event_id = 'e7'",
    );
    assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /decisions_event/);
  } finally {
    await client.end();
  }
});

test('PostgresStore: decisions and pending rewards of one model arriving together share one statement; each answered as alone', async () => {
  const url = await server.createDatabase();
  const a = await PostgresStore.open(url);
  try {
    await createSumModel(a, 'm', 6);
    const row = (e: string, i: number) => ({
      ...oneArmDecision('m', e, 200 + i),
      features: new Float64Array([i + 0.5, -i]),
      chosenFeatures: new Float64Array([i + 0.5]),
      dim: 2,
      unit: i % 2 === 0 ? `u${i}` : null,
    });
    await a.recordPending({ ...reward('m', 'e0', 1), logReward: true });
    // in one turn: new decisions (one repeating an existing event id), rewards recorded, a
    // duplicate, an unknown event, and the reward of a decision of the same group (not yet
    // committed when the group is written: unknown)
    const decisions = ['n0', 'n1', 'e2', 'n2'].map((e, i) => a.insertDecision(row(e, i)));
    const rewards = [
      a.recordPending({ ...reward('m', 'e1', 0.25), logReward: true, unit: 'v1' }),
      a.recordPending(reward('m', 'e0', 1)),
      a.recordPending(reward('m', 'nope', 1)),
      a.recordPending(reward('m', 'n1', 1)),
      a.recordPending(reward('m', 'e3', 0.75)),
    ];
    assert.deepEqual(await Promise.all(decisions), [true, true, false, true]);
    const outs = await Promise.all(rewards);
    assert.deepEqual(
      outs.map((o) => o.outcome),
      ['recorded', 'duplicate', 'unknown-event', 'unknown-event', 'recorded'],
    );
    assert.deepEqual(
      outs.map((o) => o.pending),
      [3, 3, 3, 3, 3],
      'the pending count after the statement',
    );
    const st = a.stats();
    assert.equal(st.decisionsBatched, 6 + 4);
    assert.equal(st.rewardsBatched, 1 + 5);
    assert.equal(st.decisionStatements, 6 + 1);
    assert.equal(st.rewardStatements, 1 + 1);
    assert.equal(st.sharedStatements, 1, 'the five rewards in the same statement as the decisions');
    for (const [e, i] of [
      ['n0', 0],
      ['n1', 1],
      ['n2', 3],
    ] as const) {
      const d = await a.getDecision('m', e);
      assert.deepEqual(
        [d?.time, [...(d?.features ?? [])], d?.chosenFeatures[0], d?.unit ?? null, d?.rewardState],
        [200 + i, [i + 0.5, -i], i + 0.5, i % 2 === 0 ? `u${i}` : null, 'none'],
      );
    }
    const e1 = await a.getDecision('m', 'e1');
    assert.deepEqual([e1?.rewardState, e1?.reward, e1?.unit], ['pending', 0.25, 'v1']);
    assert.equal((await a.getDecision('m', 'e2'))?.time, 10, 'the existing decision kept');
    const state = await a.loadModelState('m');
    assert.deepEqual(
      state?.pending.map((p) => [p.eventId, p.reward]),
      [
        ['e0', 1],
        ['e1', 0.25],
        ['e3', 0.75],
      ],
    );
    // a model that does not exist: its decisions refused, its rewards unknown
    const gone = [a.insertDecision(oneArmDecision('none', 'x1')), a.recordPending(reward('none', 'x2', 1))];
    const [d, r] = await Promise.allSettled(gone);
    assert.equal(d?.status, 'rejected');
    assert.deepEqual(r?.status === 'fulfilled' ? r.value : r, { outcome: 'unknown-event', pending: 0 });
  } finally {
    await a.close();
  }
});

test('PostgresStore.stepRewards: several steps in one call, one ledger row each; a bad event names its index and nothing is written', async () => {
  const url = await server.createDatabase();
  const a = await PostgresStore.open(url);
  try {
    await createSumModel(a, 'm', 6, true);
    const step = (e: string, r: number, releases: number) => ({
      reward: { ...reward('m', e, r), logReward: true, time: 50 + r },
      releases,
      spent: { e },
    });
    const steps = [step('e0', 1, 0), step('e1', 0, 2), step('e2', 1, 1)];
    // rejected: an unknown event, a repeat inside the call, a stale version or rounds, the horizon
    assert.deepEqual(await a.stepRewards('m', 0, null, [steps[0]!, step('nope', 1, 0)], 2, 's'), {
      rejected: 1,
      outcome: 'unknown-event',
    });
    assert.deepEqual(await a.stepRewards('m', 0, null, [steps[0]!, steps[1]!, steps[0]!], 3, 's'), {
      rejected: 2,
      outcome: 'duplicate',
    });
    assert.equal(await a.stepRewards('m', 1, null, steps, 3, 's'), 'stale');
    assert.equal(await a.stepRewards('m', 0, null, steps, 4, 's'), 'stale');
    assert.equal(await a.stepRewards('m', 0, 2, steps, 3, 's'), 'horizon-exhausted');
    assert.equal((await a.ledger('m')).length, 0);
    assert.equal((await a.getDecision('m', 'e0'))?.rewardState, 'none');
    assert.equal(await a.stepRewards('m', 0, 3, steps, 3, 's3'), 'recorded');
    assert.deepEqual(
      (await a.ledger('m')).map((l) => [l.version, l.time, l.releases, l.rounds, l.rewards, l.spent]),
      [
        [1, 51, 0, 1, 1, { e: 'e0' }],
        [2, 50, 2, 2, 1, { e: 'e1' }],
        [3, 51, 1, 3, 1, { e: 'e2' }],
      ],
    );
    const d1 = await a.getDecision('m', 'e1');
    assert.deepEqual([d1?.rewardState, d1?.release, d1?.reward], ['released', 2, 0]);
    assert.deepEqual(await a.releasedState('m'), { version: 3, rounds: 3, snapshot: 's3' });
    assert.deepEqual(await a.stepRewards('m', 3, null, [step('e1', 1, 0)], 4, 's'), {
      rejected: 0,
      outcome: 'duplicate',
    });
  } finally {
    await a.close();
  }
});

test('PostgresStore.decideMany: decisions in one call, a ledger row of 0 rewards per release at the next versions; an existing event id names its index and nothing is written', async () => {
  const url = await server.createDatabase();
  const a = await PostgresStore.open(url);
  try {
    await createSumModel(a, 'm', 1);
    const dec = (e: string, modelVersion: number) => ({ ...oneArmDecision('m', e, 70), modelVersion });
    const rel = (n: number) => ({ releases: n, spent: { n } });
    const group = [
      { decision: { ...dec('d0', 1), clipped: 1 }, release: rel(1) },
      { decision: dec('d1', 1), release: null },
      { decision: { ...dec('d2', 2), clipped: 0 }, release: rel(2) },
    ];
    assert.equal(await a.decideMany('m', 1, group, 0, 's2'), 'stale');
    assert.equal(
      await a.decideMany('gone', 0, [{ decision: oneArmDecision('gone', 'x'), release: null }], 0, null),
      'gone',
    );
    assert.deepEqual(
      await a.decideMany('m', 0, [...group.slice(0, 2), { decision: dec('e0', 1), release: null }], 0, 's1'),
      {
        exists: 2,
      },
    );
    assert.deepEqual(await a.decideMany('m', 0, [group[0]!, group[1]!, group[0]!], 0, 's1'), { exists: 2 });
    assert.equal((await a.ledger('m')).length, 0);
    assert.equal(await a.getDecision('m', 'd0'), null);
    assert.equal(await a.decideMany('m', 0, group, 0, 's2'), 'inserted');
    assert.deepEqual(
      (await a.ledger('m')).map((l) => [l.version, l.time, l.releases, l.rewards, l.spent]),
      [
        [1, 70, 1, 0, { n: 1 }],
        [2, 70, 2, 0, { n: 2 }],
      ],
    );
    assert.deepEqual(await a.releasedState('m'), { version: 2, rounds: 0, snapshot: 's2' });
    assert.deepEqual(
      await Promise.all(['d0', 'd1', 'd2'].map(async (e) => (await a.getDecision('m', e))?.modelVersion)),
      [1, 1, 2],
    );
    // each decision's clipped candidate count is stored with it (null when not given)
    assert.deepEqual(
      await Promise.all(['d0', 'd1', 'd2'].map(async (e) => (await a.getDecision('m', e))?.clipped)),
      [1, null, 0],
    );
    // without a release nothing but the decisions is written
    assert.equal(
      await a.decideMany('m', 2, [{ decision: dec('d3', 2), release: null }], 0, null),
      'inserted',
    );
    assert.equal(await a.modelVersion('m'), 2);
  } finally {
    await a.close();
  }
});
