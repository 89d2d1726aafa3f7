// JDP-LinUCB on the SQLite service is restart-safe (issue 24 item 3): its tree node noise is drawn
// at every reward and can still influence later decisions, so every node release is committed with
// the state that uses it. A restart (the runtime rebuilt from the database file, as after SIGKILL:
// every answered request was durable) finds no reward to replay with fresh noise: the released
// estimate (read through `scores`, post-processing of released data) and the ledger are the same
// before and after each of 21 restarts. Before the mechanisms room the snapshot was written only
// when a tree level opened, and each restart replayed the pending rewards with new node noise.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Policy } from '../../src/policies/index.js';
import { createSnapshotKey } from '../../src/policies/index.js';
import { ModelRuntime } from '../../src/service/ModelRuntime.js';
import { ServiceMetrics } from '../../src/service/ServiceMetrics.js';
import { SqliteStore } from '../../src/store/index.js';
import { createModelInFile } from './testServer.js';

const D = 2;
const PROBE = Float64Array.from({ length: 16 * D }, (_, i) =>
  i % 2 === 0 ? Math.cos(Math.floor(i / 2) * 0.4) : Math.sin(Math.floor(i / 2) * 0.4),
);

/** The runtime's policy, read only through its public `scores` and `privacy` (a test peek). */
function policyOf(rt: ModelRuntime): Policy {
  return (rt as unknown as { readonly policy: Policy }).policy;
}

test('JDP-LinUCB on SQLite: 21 restarts with rewards since the last tree level keep the released estimate and the ledger', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-jdp-restart-'));
  const db = join(dir, 'service.db');
  const snapshotKey = createSnapshotKey();
  const clock = Date.UTC(2026, 0, 1);
  try {
    await createModelInFile(
      db,
      snapshotKey,
      'j',
      { policy: 'jdp-linucb', options: { dim: D, horizon: 512, seed: 4, epsilon: 1 } },
      () => clock,
    );

    let scores: number[] | null = null;
    let ledger: string | null = null;
    let event = 0;
    for (let restart = 0; restart <= 21; restart++) {
      const store = SqliteStore.open(db);
      const ctx = { store, now: () => clock, metrics: new ServiceMetrics(), sweepIntervalMs: 0, snapshotKey };
      const rt = await ModelRuntime.load('j', ctx);
      assert.ok(rt !== null);
      const p = policyOf(rt);
      if (scores !== null) {
        assert.deepEqual([...p.scores(PROBE, 16)], scores, `restart ${restart}: the released estimate moved`);
        assert.equal(JSON.stringify(p.privacy()), ledger, `restart ${restart}: the ledger moved`);
      }
      // three rounds (rounds 3, 5, 6, ... open no tree level: their nodes are what a restart must keep)
      for (let i = 0; i < 3; i++) {
        const a = (event * 0.9) % Math.PI;
        const r = await rt.rank({
          eventId: `e${event}`,
          arms: [
            { id: 'a', features: [Math.cos(a), Math.sin(a)] },
            { id: 'b', features: [Math.sin(a), Math.cos(a)] },
          ],
        });
        await rt.reward(r.eventId, (event % 5) / 4);
        event++;
      }
      scores = [...p.scores(PROBE, 16)];
      ledger = JSON.stringify(p.privacy());
      await store.close();
    }
    assert.equal(event, 66);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
