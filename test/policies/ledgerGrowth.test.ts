// A policy that releases a batch at a time for a long run keeps a snapshot of bounded size: its
// ledger folds the partitions of Gaussian releases (src/privacy/ledger.ts), so the snapshot written
// at each release does not grow with the releases made. The folded ledger saves, loads and rewinds
// like any other, with the same guarantee.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPolicy } from '../../src/policies/index.js';
import { FOLD_AT } from '../../src/privacy/ledger.js';
import { make, makeStream, play } from './helpers.js';

const KEY = 'ledger-growth test key of at least 32 characters';

for (const [id, ceiling] of [
  ['adaprivate-ts', 24_000],
  ['adaprivate-ts-amp', 120_000],
] as const) {
  test(`${id}: from 2x to 4x FOLD_AT releases the snapshot stays under a ceiling; it loads, rewinds and goes on`, () => {
    const stream = makeStream(7, 500, 3, 4);
    const p = make(id, { batchSize: 2, horizon: 100_000 });
    let t = 0;
    const upTo = (releases: number) => {
      while (p.privacy().releases < releases) {
        play(p, stream, t, 2);
        t += 2;
      }
    };
    upTo(2 * FOLD_AT);
    const early = p.snapshot({ key: KEY });
    // between folds the ledger keeps fewer than FOLD_AT partitions apart: the snapshot's size has a
    // ceiling (unfolded, 1,024 releases took ~38 KB of ledger alone, ~60 bytes per release)
    let largest = 0;
    for (let releases = 2 * FOLD_AT; releases <= 4 * FOLD_AT; releases += 32) {
      upTo(releases);
      const snap = p.snapshot({ key: KEY });
      largest = Math.max(largest, JSON.stringify(snap).length);
      const ledger = (snap.state as { base: { ledger: { partitions: unknown[] } } }).base.ledger;
      assert.ok(ledger.partitions.length < FOLD_AT, `${ledger.partitions.length} partitions kept apart`);
    }
    assert.ok(largest < ceiling, `the largest snapshot took ${largest} bytes`);
    const spent = p.privacy();
    assert.equal(spent.partitions, 4 * FOLD_AT);
    // a rewind to the early snapshot re-releases batches on folded partitions: counted on top
    p.restore(early, { rewind: true, key: KEY });
    play(p, stream, 0, 40);
    const after = p.privacy();
    assert.equal(after.releases, spent.releases + 20);
    assert.equal(after.partitions, spent.partitions, 'the re-released partitions were seen');
    assert.ok(after.epsilon >= spent.epsilon);
    const r = loadPolicy(p.save({ key: KEY }), { key: KEY });
    assert.deepEqual(r.privacy(), after);
  });
}
