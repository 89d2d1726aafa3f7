/**
 * Upgrades (issue 26): the database written by adaprivate 0.1.0 (test/fixtures/service-db-0.1.0,
 * never regenerated) is served by this version with its ledger intact: the same models, ledger rows,
 * guarantee and counts as the 0.1.0 server answered just before it closed (expected.json), the
 * pending reward still pending, and the models keep deciding and learning.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createSnapshotKey, migrateSnapshot } from '../../src/policies/index.js';
import { SqliteStore } from '../../src/store/index.js';
import { startTestServer } from '../service/testServer.js';

// dist/test/store -> test/fixtures (the fixture is not copied by tsc)
const fixtureDir = fileURLToPath(new URL('../../../test/fixtures/service-db-0.1.0/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'adaprivate-upgrade-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Expected {
  readonly [model: string]: {
    // biome-ignore lint/suspicious/noExplicitAny: the 0.1.0 answers, compared field by field
    readonly status: any;
    // biome-ignore lint/suspicious/noExplicitAny: the 0.1.0 answers, compared field by field
    readonly ledger: any;
  };
}

test('the 0.1.0 fixture database opens at this store format (migration steps) with its rows intact', async () => {
  const expected = JSON.parse(readFileSync(join(fixtureDir, 'expected.json'), 'utf8')) as Expected;
  const db = join(dir, 'store.db');
  copyFileSync(join(fixtureDir, 'adaprivate-0.1.0.db'), db);
  const s = SqliteStore.open(db, { lock: true });
  try {
    assert.equal(s.formatFound, 1, '0.1.0 wrote store format 1');
    assert.equal(s.formatVersion, SqliteStore.FORMAT_VERSION);
    assert.deepEqual((await s.listModels()).map((m) => m.name).sort(), Object.keys(expected).sort());
    for (const [name, want] of Object.entries(expected)) {
      const rows = await s.ledger(name);
      assert.deepEqual(
        rows.map((r) => ({
          version: r.version,
          time: new Date(r.time).toISOString(),
          rewards: r.rewards,
          releases: r.releases,
          rounds: r.rounds,
          spent: r.spent,
        })),
        want.ledger.releases,
        `${name}: ledger rows`,
      );
      const c = await s.counts(name);
      assert.deepEqual(
        [c.decisions, c.pendingRewards, c.releasedRewards, c.defaultRewards],
        [
          want.status.decisions,
          want.status.pendingRewards,
          want.status.releasedRewards,
          want.status.defaultRewards,
        ],
        `${name}: counts`,
      );
    }
    const news = await s.loadModelState('news');
    assert.deepEqual(
      news?.pending.map((p) => [p.eventId, p.reward]),
      [['n4', 0.625]],
    );
  } finally {
    await s.close();
  }
});

// 0.1.0 stored its policy snapshots unsigned: a server refuses them (an unsigned row could be a
// forgery) until the operator's one explicit step, `adaprivate migrate --db FILE`, signs them under
// the server's snapshot key (migrateSnapshot with trustUnsigned, as the CLI does).
/** Every field the 0.1.0 guarantee had keeps its value (this version adds fields: unit, statement, ...). */
function assertSameFigures(got: unknown, want: unknown, what: string): void {
  if (want === null || typeof want !== 'object') {
    assert.deepEqual(got, want, what);
    return;
  }
  assert.ok(got !== null && typeof got === 'object', `${what}: missing`);
  for (const [k, v] of Object.entries(want)) {
    assert.deepEqual((got as Record<string, unknown>)[k], v, `${what}.${k}`);
  }
}

test('the 0.1.0 fixture database serves after the upgrade with its ledger intact', async () => {
  const expected = JSON.parse(readFileSync(join(fixtureDir, 'expected.json'), 'utf8')) as Expected;
  const db = join(dir, 'a.db');
  copyFileSync(join(fixtureDir, 'adaprivate-0.1.0.db'), db);
  const snapshotKey = createSnapshotKey();
  const refused = await startTestServer({ db, snapshotKey }).then(
    async (t) => {
      await t.close();
      return false;
    },
    () => true,
  );
  assert.ok(refused, 'a server must refuse the unsigned 0.1.0 snapshots before the migration');
  const m = SqliteStore.open(db, { lock: true });
  try {
    assert.equal(
      m.migrateSnapshots((text) => migrateSnapshot(text, { key: snapshotKey, trustUnsigned: true })),
      Object.keys(expected).length,
    );
  } finally {
    await m.close();
  }
  const t = await startTestServer({ db, snapshotKey });
  try {
    for (const [name, want] of Object.entries(expected)) {
      const ledger = (await t.raw('GET', `/v1/models/${name}/ledger`)).body;
      assert.deepEqual(ledger.releases, want.ledger.releases, `${name}: ledger rows`);
      assertSameFigures(ledger.privacy, want.ledger.privacy, `${name}: guarantee`);
      const s = (await t.raw('GET', `/v1/models/${name}`)).body;
      for (const k of [
        'policy',
        'options',
        'settings',
        'createdAt',
        'modelVersion',
        'rounds',
        'decisions',
        'pendingRewards',
        'releasedRewards',
        'defaultRewards',
        'batchesReleased',
      ]) {
        // settings added after the fixture read their defaults (retainDecisionsDays null, logCandidates true)
        const wanted =
          k === 'settings'
            ? { ...want.status[k], retainDecisionsDays: null, logCandidates: true }
            : want.status[k];
        assert.deepEqual(s[k], wanted, `${name}: status ${k}`);
      }
      assertSameFigures(s.privacy, want.status.privacy, `${name}: status privacy`);
    }
    // the pending reward of 'news' (0.625) completes a batch with the next one: release 3
    const d = await t.client.rank('news', {
      eventId: 'after-upgrade',
      arms: [
        { id: 'a', features: [0.5, 0.1, 0.1] },
        { id: 'b', features: [0.1, 0.6, 0.1] },
      ],
    });
    assert.equal(d.modelVersion, 2);
    const r = await t.client.reward('news', { eventId: 'n5', reward: 0.5 });
    assert.deepEqual([r.released, r.modelVersion], [true, 3]);
    const ledger = (await t.raw('GET', '/v1/models/news/ledger')).body;
    assert.deepEqual(
      ledger.releases.map((x: { version: number; rewards: number }) => [x.version, x.rewards]),
      [
        [1, 2],
        [2, 2],
        [3, 2],
      ],
    );
  } finally {
    await t.close();
  }
  // the file now carries this version's store format
  const s = SqliteStore.open(db);
  assert.equal(s.formatFound, SqliteStore.FORMAT_VERSION, 'migrated when the server opened it');
  assert.equal(s.formatVersion, SqliteStore.FORMAT_VERSION);
  await s.close();
});
