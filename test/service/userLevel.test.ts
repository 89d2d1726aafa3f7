// User-level models in the decision service (one server, SQLite): the shared assertions of
// userLevelScenario.ts (also run on PostgreSQL replicas by userLevel.postgres.test.ts), and what the
// service refuses.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { startTestServer } from './testServer.js';
import {
  ARMS,
  codeOf,
  defaultRewardScenario,
  type EngineDb,
  userLevelScenario,
} from './userLevelScenario.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-units-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A SQLite file as the scenario's database ($n parameters become SQLite's named @pn). */
function sqliteDb(file: string): EngineDb {
  return {
    server: async () => ({ db: file }),
    all: async <T>(sql: string, params: readonly unknown[] = []) => {
      const db = new Database(file, { readonly: true });
      try {
        const named = Object.fromEntries(params.map((v, i) => [`p${i + 1}`, v]));
        return db.prepare(sql.replace(/\$(\d+)/g, '@p$1')).all(named) as T[];
      } finally {
        db.close();
      }
    },
    close: async () => {},
  };
}

describe('user-level model on one server', () => {
  test('c = 1 and m = 2: second reward per release and third release per epoch are dropped, counted, and never learned; an epoch change closes the open release; a restart keeps the counts; the database shows no unit past its bounds', async () => {
    const db = sqliteDb(join(dir, 'u.db'));
    await userLevelScenario(db);
    // SQLite keeps a pending raw reward on its decision (schema 8): a dropped one carries none
    const carried = await db.all<{ n: number }>(
      'SELECT COUNT(*) AS n FROM decisions WHERE reward_state = 3 AND (pending IS NOT NULL OR pending_seq IS NOT NULL)',
    );
    assert.equal(carried[0]?.n, 0);
    const dropped = await db.all<{ n: number }>('SELECT COUNT(*) AS n FROM decisions WHERE reward_state = 3');
    assert.ok((dropped[0]?.n ?? 0) > 0, 'the scenario drops rewards');
  });

  test('default rewards after the window go through the same bounds (first come, first kept)', async () => {
    await defaultRewardScenario(sqliteDb(join(dir, 'd.db')));
  });

  test("event-level models log the unit of the rank or of the reward; JDP-LinUCB refuses privacyUnit 'user' (epochRounds and sampled units are served: test/service/userLevelServed.test.ts)", async () => {
    const t = await startTestServer();
    try {
      await t.client.createModel('e', {
        policy: 'adaprivate-ts',
        options: { dim: 2, horizon: 100, epsilon: 1, seed: 1 },
      });
      const r1 = await t.client.rank('e', { unit: 'alice', arms: ARMS });
      await t.client.reward('e', { eventId: r1.eventId, reward: 1 });
      const r2 = await t.client.rank('e', { arms: ARMS });
      await t.client.reward('e', { eventId: r2.eventId, reward: 0, unit: 'bob' });
      await t.client.rank('e', { arms: ARMS });
      const lines = await t.client.exportDecisions('e');
      assert.deepEqual(
        lines.map((l) => l.unit),
        ['alice', 'bob', undefined],
      );
      const st = await t.client.status('e');
      assert.equal(st.privacy.unit, 'event');
      assert.match(
        st.privacy.statement,
        /^event-level: protects one reward; features, chosen arms and stored decisions are not protected/,
      );
      const jdp = await codeOf(
        t.client.createModel('jdp', {
          policy: 'jdp-linucb',
          options: { dim: 2, horizon: 10, epsilon: 1, privacyUnit: 'user', releasesPerEpoch: 2 },
        }),
      );
      assert.match(jdp[2], /privacyUnit 'user' is not supported/);
    } finally {
      await t.close();
    }
  });
});
