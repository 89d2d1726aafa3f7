// User-level models the single server used to refuse: units sampled into releases (AdaPrivate-TS-Amp,
// q < 1) and epochs counted in rewards offered (epochRounds). Sampling: each unit's draw is stored
// with its count in the reward's transaction; a restart replays the pending rewards with the stored
// draws (never a second draw), and the release that follows commits with a ledger that matches the
// database. epochRounds: a served model with restarts in the middle of an epoch answers every reward
// exactly as the same policy in memory that never restarted (the drops since the last release are
// not replayed, yet they are counted as offered).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { AdaPrivateClient } from '../../src/client/index.js';
import { createPolicy, type Policy } from '../../src/policies/index.js';
import { ModelRuntime } from '../../src/service/ModelRuntime.js';
import { ServiceMetrics } from '../../src/service/ServiceMetrics.js';
import { SqliteStore } from '../../src/store/index.js';
import { startServeChild } from '../support/serveChild.js';
import { startTestServer } from './testServer.js';

const SNAPSHOT_KEY = 'served-user-level-test-snapshot-key-0123456789';
const ARMS = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
];
const dir = mkdtempSync(join(tmpdir(), 'adaprivate-userserved-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The open batch sum of a loaded model's policy (BatchedRidgePolicy's `s`: the sampled rewards' r x). */
async function openSum(db: string, name: string, snapshotKey = SNAPSHOT_KEY): Promise<number[]> {
  const store = SqliteStore.open(db);
  try {
    const rt = await ModelRuntime.load(name, {
      store,
      now: () => Date.UTC(2026, 0, 1),
      metrics: new ServiceMetrics({ defaultMetrics: false }),
      sweepIntervalMs: 0,
      snapshotKey,
    });
    assert.ok(rt !== null);
    // a test reads the policy's private running sum: what the next release adds its noise to
    const policy = (rt as unknown as { policy: { s: Float64Array } }).policy;
    return [...policy.s];
  } finally {
    await store.close();
  }
}

/** The unit rows (draws) of a database file. */
function unitRows(db: string) {
  const file = new Database(db, { readonly: true });
  try {
    return file.prepare('SELECT unit, release, in_release, sampled FROM unit_counts ORDER BY unit').all() as {
      unit: string;
      release: number;
      in_release: number;
      sampled: number | null;
    }[];
  } finally {
    file.close();
  }
}

/** The open batch sum the stored draws give: the pending rewards (r x) of the units drawn in. */
function storedSum(db: string): number[] {
  const draws = unitRows(db);
  const file = new Database(db, { readonly: true });
  try {
    const rows = file
      .prepare(
        `SELECT p.reward, p.features, u.unit FROM pending_rewards p JOIN decision_units u
         ON u.model = p.model AND u.event_id = p.event_id ORDER BY p.seq`,
      )
      .all() as { reward: number; features: Buffer; unit: string }[];
    let s0 = 0;
    let s1 = 0;
    for (const r of rows) {
      if (draws.find((d) => d.unit === r.unit)!.sampled !== 1) continue;
      const x = new Float64Array(r.features.buffer, r.features.byteOffset, 2);
      s0 += r.reward * x[0]!;
      s1 += r.reward * x[1]!;
    }
    return [s0, s1];
  } finally {
    file.close();
  }
}

describe('user-level models the single server serves', () => {
  test('q < 1 samples units once per release: the draw is stored with the reward; reloads and a restart reuse it (no redraw); the release and ledger match the database', async () => {
    const db = join(dir, 'amp.db');
    const options = {
      dim: 2,
      horizon: 1000,
      epsilon: 1,
      batchSize: 8,
      q: 0.5,
      seed: 3,
      privacyUnit: 'user' as const,
      releasesPerEpoch: 4,
    };
    const a = await startTestServer({ db, snapshotKey: SNAPSHOT_KEY });
    const units = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7'];
    try {
      await a.client.createModel('amp', { policy: 'adaprivate-ts-amp', options });
      // seven units with distinct rewards (two different samples give different sums), then one
      // unit again (c = 1: dropped): 7 kept rewards in the open release (batch size 8)
      for (const [i, unit] of units.entries()) {
        const d = await a.client.rank('amp', { unit, arms: ARMS });
        const r = await a.client.reward('amp', { eventId: d.eventId, reward: (i + 1) / 8 });
        assert.equal(r.dropped, undefined);
        assert.equal(r.released, false);
      }
      const again = await a.client.rank('amp', { unit: 'u1', arms: ARMS });
      assert.equal(
        (await a.client.reward('amp', { eventId: again.eventId, reward: 1 })).dropped,
        'perRelease',
      );
    } finally {
      await a.close();
    }
    const draws = unitRows(db);
    assert.equal(draws.length, 7);
    for (const r of draws) {
      assert.equal(r.release, 1);
      assert.ok(r.sampled === 0 || r.sampled === 1, `unit ${r.unit}: a draw is stored with its count`);
    }
    // the open batch the replay rebuilds is the sum of the pending rewards of the drawn units
    const expected = storedSum(db);
    // five reloads (each one a restart's replay with fresh secure randomness): always the stored
    // draws. With a redraw, each reload would match with probability about 2^-7.
    for (let i = 0; i < 5; i++) assert.deepEqual(await openSum(db, 'amp'), expected, `reload ${i + 1}`);
    assert.deepEqual(unitRows(db), draws, 'loading draws nothing new');

    // restart: the batch completes and releases with the stored draws; the ledger matches the database
    const b = await startTestServer({ db, snapshotKey: SNAPSHOT_KEY });
    try {
      const d = await b.client.rank('amp', { unit: 'u8', arms: ARMS });
      assert.equal((await b.client.reward('amp', { eventId: d.eventId, reward: 1 })).released, true);
      const ledger = (await b.raw('GET', '/v1/models/amp/ledger')).body;
      assert.equal(ledger.releases.length, 1);
      assert.equal(ledger.releases[0].rewards, 8, 'the 7 replayed rewards and the last one');
      assert.equal(ledger.releases[0].spent.cumulative.compositions, 1);
      const s = await b.client.status('amp');
      assert.equal(s.privacy.releases, 1);
      assert.deepEqual(s.privacy.dropped, { perRelease: 1, perEpoch: 0, total: 1 });
      assert.equal(s.pendingRewards, 0);
      assert.equal(s.modelVersion, 1);
      // a new release: u1 joins it with a new draw (one per unit and release)
      const e = await b.client.rank('amp', { unit: 'u1', arms: ARMS });
      assert.equal((await b.client.reward('amp', { eventId: e.eventId, reward: 1 })).dropped, undefined);
    } finally {
      await b.close();
    }
    const later = unitRows(db);
    for (const r of draws.filter((x) => x.unit !== 'u1'))
      assert.deepEqual(
        later.find((x) => x.unit === r.unit),
        r,
        `unit ${r.unit}: its draw for release 1 was never rewritten`,
      );
    const u1 = later.find((x) => x.unit === 'u1')!;
    assert.deepEqual([u1.release, u1.in_release], [2, 1]);
    assert.ok(u1.sampled === 0 || u1.sampled === 1);
    // the sampled-unit run's stored snapshot carries the released version
    const file = new Database(db, { readonly: true });
    try {
      const m = file.prepare('SELECT version FROM models WHERE name = ?').get('amp') as { version: number };
      assert.equal(m.version, 1);
    } finally {
      file.close();
    }
  });

  test('q < 1 through SIGKILLs, one inside the release transaction: the half-done release rolls back with nothing redrawn; the release that follows uses the stored draws', async () => {
    const db = join(dir, 'amp-kill.db');
    const key = 'sampled-units-kill-test-key-0123456789abc';
    const snapshotKey = `snapshot key of the test servers, ${key}`; // what startServeChild sets
    const start = async (hook: string) => {
      const s = await startServeChild(db, key, hook);
      assert.ok(s.url !== null, 'the server listens');
      return { s, client: new AdaPrivateClient({ baseUrl: s.url, apiKey: key }) };
    };
    // life 1: five units in the open release (batch size 6), then SIGKILL
    const one = await start('');
    await one.client.createModel('amp', {
      policy: 'adaprivate-ts-amp',
      options: {
        dim: 2,
        horizon: 1000,
        epsilon: 1,
        batchSize: 6,
        q: 0.5,
        privacyUnit: 'user',
        releasesPerEpoch: 3,
      },
    });
    for (const [i, unit] of ['u1', 'u2', 'u3', 'u4', 'u5'].entries()) {
      const d = await one.client.rank('amp', { unit, arms: ARMS });
      await one.client.reward('amp', { eventId: d.eventId, reward: (i + 1) / 8 });
    }
    await one.client.rank('amp', { eventId: 'last', unit: 'u6', arms: ARMS });
    one.s.child.kill('SIGKILL');
    assert.equal((await one.s.exited).signal, 'SIGKILL');
    const draws = unitRows(db);
    assert.equal(draws.length, 5);
    const expected = storedSum(db);
    for (let i = 0; i < 3; i++) assert.deepEqual(await openSum(db, 'amp', snapshotKey), expected);
    // life 2: u6's reward completes the batch; the server kills itself inside that release's transaction
    const two = await start('1:1');
    await assert.rejects(two.client.reward('amp', { eventId: 'last', reward: 1 }));
    const exit = await two.s.exited;
    assert.equal(exit.signal, 'SIGKILL', exit.stderr);
    assert.match(exit.stderr, /SIGKILL inside a release transaction/);
    assert.deepEqual(unitRows(db), draws, 'the half-done release wrote nothing: no new draw, no count');
    assert.deepEqual(storedSum(db), expected);
    for (let i = 0; i < 3; i++) assert.deepEqual(await openSum(db, 'amp', snapshotKey), expected);
    // life 3: the same reward again: released with the stored draws; ledger and database agree
    const three = await start('');
    try {
      assert.equal((await three.client.reward('amp', { eventId: 'last', reward: 1 })).released, true);
      const ledger = await three.client.ledger('amp');
      assert.equal(ledger.releases.length, 1);
      assert.equal(ledger.releases[0]!.rewards, 6);
      const s = await three.client.status('amp');
      assert.deepEqual([s.privacy.releases, s.pendingRewards, s.modelVersion], [1, 0, 1]);
    } finally {
      three.s.child.kill('SIGKILL');
      await three.s.exited;
    }
    const after = unitRows(db);
    for (const r of draws)
      assert.deepEqual(
        after.find((x) => x.unit === r.unit),
        r,
        `${r.unit}: its draw kept`,
      );
    assert.equal(after.find((x) => x.unit === 'u6')?.release, 1);
  });

  test('epochRounds: a round is a reward offered (kept or dropped); with restarts mid-epoch the server answers as the policy in memory that never restarted', async () => {
    const db = join(dir, 'rounds.db');
    const options = {
      dim: 2,
      horizon: 1000,
      epsilon: 1,
      batchSize: 2,
      seed: 5,
      privacyUnit: 'user' as const,
      contributionsPerRelease: 1,
      releasesPerEpoch: 1,
      epochRounds: 5,
    };
    // the reference: the same policy in memory (its counts in its own snapshot), same rewards
    const ref: Policy = createPolicy('adaprivate-ts', options as never);
    const x = Float64Array.from(ARMS[0]!.features);
    // epoch 0 = rewards 0-4, epoch 1 = 5-9, ...; restarts after rewards 10 and 13 (drops since
    // the last release before each)
    const plan = ['a', 'a', 'b', 'a', 'c', 'd', 'a', 'a', 'a', 'b', 'c', 'c', 'a', 'c', 'e', 'e', 'b', 'f'];
    const restartAfter = new Set([10, 13]);
    let t = await startTestServer({ db, snapshotKey: SNAPSHOT_KEY });
    try {
      await t.client.createModel('r', { policy: 'adaprivate-ts', options });
      for (const [i, unit] of plan.entries()) {
        const before = ref.privacy();
        ref.observe(x, 1, unit);
        const after = ref.privacy();
        const want =
          after.dropped!.perEpoch > before.dropped!.perEpoch
            ? 'perEpoch'
            : after.dropped!.perRelease > before.dropped!.perRelease
              ? 'perRelease'
              : undefined;
        const d = await t.client.rank('r', { unit, arms: [ARMS[0]!] });
        const got = await t.client.reward('r', { eventId: d.eventId, reward: 1 });
        assert.equal(got.dropped, want, `reward ${i} (unit ${unit}): dropped as in memory`);
        assert.equal(got.released, after.releases > before.releases, `reward ${i}: released as in memory`);
        if (restartAfter.has(i)) {
          await t.close();
          t = await startTestServer({ db, snapshotKey: SNAPSHOT_KEY });
        }
      }
      const s = await t.client.status('r');
      const p = ref.privacy();
      assert.equal(s.privacy.releases, p.releases);
      assert.deepEqual(s.privacy.epoch, p.epoch);
      assert.deepEqual(s.privacy.dropped, p.dropped);
      assert.equal(s.privacy.perEpoch?.compositions, p.perEpoch!.compositions);
      assert.equal(s.privacy.cumulative?.compositions, p.cumulative!.compositions);
      assert.ok(
        Math.abs((s.privacy.epsilon ?? Number.NaN) - p.epsilon) <= 1e-9 * p.epsilon,
        'the same cumulative guarantee',
      );
      assert.equal(s.privacy.epoch?.kind, 'rounds');
      assert.equal(s.privacy.epoch?.current, Math.floor((plan.length - 1) / 5));
      assert.match(s.privacy.statement, /per 5-reward epoch/);
    } finally {
      await t.close();
    }
    // from the database: the counts of past epochs expired; no unit past m = 1 release per epoch
    const file = new Database(db, { readonly: true });
    try {
      const rows = file.prepare('SELECT unit, epoch, releases FROM unit_counts').all() as {
        unit: string;
        epoch: number;
        releases: number;
      }[];
      assert.ok(rows.length > 0);
      for (const r of rows) {
        assert.equal(r.epoch, 3, `unit ${r.unit}: only the open epoch's counts are kept`);
        assert.ok(r.releases <= 1);
      }
    } finally {
      file.close();
    }
  });

  test('replicas still refuse q < 1 and epochRounds for user-level models (one server serves them)', async () => {
    const { checkServedUnitOptions } = await import('../../src/service/unitModel.js');
    const { resolveConfig } = await import('../../src/policies/index.js');
    const base = { dim: 2, horizon: 10, epsilon: 1, seed: 1, privacyUnit: 'user', releasesPerEpoch: 2 };
    const amp = resolveConfig('adaprivate-ts-amp', { ...base, q: 0.5 });
    const rounds = resolveConfig('adaprivate-ts', { ...base, epochRounds: 10 });
    assert.doesNotThrow(() => checkServedUnitOptions('adaprivate-ts-amp', amp, false));
    assert.doesNotThrow(() => checkServedUnitOptions('adaprivate-ts', rounds, false));
    assert.throws(
      () => checkServedUnitOptions('adaprivate-ts-amp', amp, true),
      /q = 0.5 with privacyUnit 'user' is not served on replicas sharing PostgreSQL/,
    );
    assert.throws(
      () => checkServedUnitOptions('adaprivate-ts', rounds, true),
      /epochRounds is not served on replicas sharing PostgreSQL/,
    );
  });
});
