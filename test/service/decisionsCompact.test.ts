/**
 * Compact decision rows (issue 29, schema 5): a model created with `logCandidates: false` stores only
 * the chosen arm's features (d Float64 values, as given) per decision, not all K candidates; its
 * export carries the chosen arm's features bit-exact and the other arms' ids; the clipped count of
 * each decision is stored with it, so a restart restores `clippedFeatures` exactly. A model with the
 * default (true) stores and exports every candidate as before, bit-exact.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Check } from 'typebox/schema';
import { DataFormatError } from '../../src/data/DataFormatError.js';
import { validateDecisionRecord } from '../../src/evaluation/validateDecisionRecord.js';
import { DecisionLogLine } from '../../src/service/decisionLogSchema.js';
import { SqliteStore } from '../../src/store/index.js';
import { startTestServer } from './testServer.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-compact-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const TS = { policy: 'adaprivate-ts', options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 3, seed: 7 } };
// values whose decimal text needs all 17 digits, a subnormal and a vector the policy clips
const ARMS = [
  { id: 'a', features: [0.1 + 0.2, 1 / 3] },
  { id: 'b', features: [5e-324, -Math.SQRT1_2] },
  { id: 'c', features: [3, 4] }, // clipped to [0.6, 0.8]
];

/** Same length and every value the same double (Object.is: -0 and 0 differ). */
function sameBits(got: readonly number[] | undefined, want: readonly number[]): boolean {
  return got !== undefined && got.length === want.length && got.every((v, k) => Object.is(v, want[k]));
}

/** Byte lengths of the stored features of model `name` (decision_features, schema 6), in decision order. */
function storedFeatureBytes(db: string, name: string): number[] {
  const c = new Database(db, { readonly: true });
  try {
    return (
      c
        .prepare(
          `SELECT length(COALESCE(f.features, d.features)) AS n FROM decisions d
           LEFT JOIN decision_features f ON f.seq = d.seq WHERE d.model = ? ORDER BY d.seq`,
        )
        .all(name) as { n: number }[]
    ).map((r) => r.n);
  } finally {
    c.close();
  }
}

test('logCandidates false: only the chosen arm is stored and exported, bit-exact; the clipped count survives a restart', async () => {
  const db = join(dir, 'compact.db');
  const a = await startTestServer({ db });
  let clipped: number;
  try {
    const created = await a.client.createModel('slim', { ...TS, logCandidates: false });
    assert.equal(created.settings.logCandidates, false);
    await a.client.createModel('full', TS);
    assert.equal(
      (await a.client.status('full')).settings.logCandidates,
      true,
      'the default keeps every candidate',
    );
    const chosen: number[] = [];
    for (let i = 0; i < 5; i++) {
      for (const m of ['slim', 'full']) {
        const d = await a.client.rank(m, { eventId: `e${i}`, arms: ARMS });
        if (m === 'slim') chosen.push(d.chosen);
        // the last decision keeps no reward: it is the one at the snapshot's version after a restart
        if (i < 4) await a.client.reward(m, { eventId: d.eventId, reward: i % 2 });
      }
    }
    const slim = await a.client.status('slim');
    clipped = slim.clippedFeatures;
    assert.equal(
      clipped,
      (await a.client.status('full')).clippedFeatures,
      'the same count for both settings',
    );
    assert.equal(slim.modelVersion, 1, 'two decisions after the last release');

    const lines: unknown[] = [];
    for await (const l of a.client.iterateDecisions('slim')) lines.push(l);
    assert.equal(lines.length, 5);
    lines.forEach((line, i) => {
      assert.ok(Check(DecisionLogLine, line), 'a line of the documented export');
      const l = line as { arms: { id: string; features?: number[] }[]; chosen: number };
      assert.equal(l.chosen, chosen[i]);
      assert.deepEqual(
        l.arms.map((x) => x.id),
        ['a', 'b', 'c'],
      );
      l.arms.forEach((x, j) => {
        if (j === l.chosen) {
          assert.equal(x.features?.length, 2);
          assert.ok(sameBits(x.features, ARMS[j]!.features), `arm ${j} as given`);
        } else {
          assert.equal('features' in x, false, 'an arm not chosen carries its id only');
        }
      });
      // off-policy evaluation needs every arm's features: it refuses such a line
      assert.throws(
        () => validateDecisionRecord(line, { file: 'export', line: i + 1 }, { dim: 2 }),
        DataFormatError,
      );
    });
    for await (const l of a.client.iterateDecisions('full')) {
      l.arms.forEach((x, j) => {
        assert.ok(sameBits(x.features, ARMS[j]!.features), `arm ${j}: every candidate, bit-exact`);
      });
    }
  } finally {
    await a.close();
  }
  assert.deepEqual(storedFeatureBytes(db, 'slim'), [16, 16, 16, 16, 16], 'd = 2 Float64 values per decision');
  assert.deepEqual(
    storedFeatureBytes(db, 'full'),
    [48, 48, 48, 48, 48],
    'K x d = 6 Float64 values per decision',
  );

  const b = await startTestServer({ db });
  try {
    const s = await b.client.status('slim');
    assert.equal(
      s.clippedFeatures,
      clipped,
      'the stored clipped counts, not the chosen arms, after a restart',
    );
    assert.equal(s.settings.logCandidates, false);
    assert.equal(s.decisions, 5);
  } finally {
    await b.close();
  }
});

test('logCandidates is part of a model identity: a different value for an existing model is refused', async () => {
  const a = await startTestServer();
  try {
    await a.client.createModel('m', { ...TS, logCandidates: false });
    const again = await a.raw('PUT', '/v1/models/m', { ...TS, logCandidates: true });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'model_exists');
    const bad = await a.raw('PUT', '/v1/models/n', { ...TS, logCandidates: 'no' });
    assert.equal(bad.status, 400);
  } finally {
    await a.close();
  }
});

test('schema 5 on the 0.1.0 database: the clipped column is added, old decisions read every candidate and a null count', async () => {
  const fixture = fileURLToPath(new URL('../../../test/fixtures/service-db-0.1.0/', import.meta.url));
  const db = join(dir, 'old.db');
  for (const ext of ['', '-wal', '-shm'])
    copyFileSync(join(fixture, `adaprivate-0.1.0.db${ext}`), `${db}${ext}`);
  const s = SqliteStore.open(db);
  try {
    assert.equal(s.formatFound, 1);
    const models = await s.listModels();
    assert.ok(models.length > 0);
    let seen = 0;
    for (const m of models) {
      assert.equal(m.settings.logCandidates, true, 'a model stored before the setting keeps every candidate');
      for (const r of await s.exportDecisions(m.name, { limit: 1000 })) {
        assert.equal(r.clipped, null);
        assert.equal(r.features.length, r.armIds.length * r.dim);
        seen++;
      }
    }
    assert.ok(seen > 0, 'the fixture has decisions');
  } finally {
    await s.close();
  }
  const c = new Database(db, { readonly: true });
  try {
    const cols = (c.prepare('PRAGMA table_info(decisions)').all() as { name: string }[]).map((r) => r.name);
    assert.ok(cols.includes('clipped'));
  } finally {
    c.close();
  }
});
