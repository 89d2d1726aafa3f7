import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteStore } from '../../src/store/index.js';
import { oneArmDecision } from '../support/storeFixtures.js';
import { storeContract } from './storeContract.js';

storeContract('sqlite', async () => SqliteStore.open(':memory:'));

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('SqliteStore: state survives reopening the file; backup is a readable copy', async () => {
  const path = join(dir, 'a.db');
  const s = SqliteStore.open(path);
  await s.createModel({
    name: 'm',
    policy: 'lints',
    options: { dim: 1, horizon: 10 },
    settings: {
      rewardWindowSeconds: 1,
      defaultReward: 0,
      duplicateRule: 'first',
      logRewards: true,
      probabilitySamples: 1,
    },
    createdAt: 1,
    snapshot: 's0',
  });
  await s.backup(join(dir, 'b.db'));
  await s.close();
  for (const p of [path, join(dir, 'b.db')]) {
    const r = SqliteStore.open(p);
    assert.equal((await r.getModel('m'))?.snapshot, 's0');
    await r.close();
  }
});

test('SqliteStore: refuses a bad synchronous option and a newer schema', async () => {
  assert.throws(() => SqliteStore.open(':memory:', { synchronous: 'off' as 'full' }), /synchronous must be/);
  const path = join(dir, 'new.db');
  const s = SqliteStore.open(path);
  await s.close();
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path);
  db.prepare("UPDATE meta SET value = '99' WHERE key = 'schema_version'").run();
  db.close();
  assert.throws(() => SqliteStore.open(path), /schema version 99/);
});

test('SqliteStore: the release hook runs inside the transaction (a throw rolls the release back)', async () => {
  let armed = true;
  const s = SqliteStore.open(':memory:', {
    beforeReleaseCommit: () => {
      if (armed) throw new Error('crash here');
    },
  });
  await s.createModel({
    name: 'm',
    policy: 'lints',
    options: {},
    settings: {
      rewardWindowSeconds: 1,
      defaultReward: null,
      duplicateRule: 'first',
      logRewards: false,
      probabilitySamples: 1,
    },
    createdAt: 1,
    snapshot: 's0',
  });
  await s.insertDecision(oneArmDecision('m', 'e', 1));
  const rel = { version: 1, snapshot: 's1', spent: {}, releases: 1, rounds: 1 };
  const input = { model: 'm', eventId: 'e', reward: 1, time: 2, source: 'given' as const, logReward: false };
  await assert.rejects(s.recordReward(input, rel), /crash here/);
  assert.deepEqual(await s.loadModelState('m'), { snapshot: 's0', version: 0, rounds: 0, pending: [] });
  assert.equal((await s.getDecision('m', 'e'))?.rewardState, 'none');
  armed = false;
  assert.equal(await s.recordReward(input, rel), 'recorded');
  assert.equal((await s.loadModelState('m'))?.version, 1);
  await s.close();
});
