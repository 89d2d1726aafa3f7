// Issue 24 item 5: after `restore(s, { rewind: true })` a policy's own save must load again (every
// family), with a ledger that still counts every release made before and after the rewind.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadPolicy, policyIds, policyInfo } from '../../src/policies/index.js';
import { make, makeStream, play } from './helpers.js';

const KEY = 'rewind-test key of at least thirty-two characters';
const stream = makeStream(31, 400, 5, 4);

describe('a rewound policy saves and loads', () => {
  for (const id of policyIds) {
    for (const noise of ['seeded', 'secure'] as const) {
      test(`${id} (${noise} noise): rewind, go on, save; restore and loadPolicy accept it`, () => {
        const p = make(id, noise === 'secure' ? { noiseSeed: undefined } : {});
        play(p, stream, 0, 60);
        const old = p.snapshot({ key: KEY });
        play(p, stream, 60, 90);
        const before = p.privacy().releases;
        p.restore(old, { rewind: true, key: KEY });
        assert.equal(p.privacy().releases, before); // the rewind keeps every release made
        play(p, stream, 60, 40);
        const after = p.privacy().releases;
        if (policyInfo(id).isPrivate)
          assert.ok(after > before, `${id}: releases after the rewind count on top`);
        // its own snapshot restores into itself, and loads into a fresh policy, ledger intact
        p.restore(p.snapshot({ key: KEY }), { key: KEY });
        const text = p.save({ key: KEY });
        const q = loadPolicy(text, { key: KEY });
        assert.deepEqual(q.privacy(), p.privacy());
        // and goes on (a second rewind and a second save/load too)
        play(q, stream, 100, 30);
        const mid = q.snapshot({ key: KEY });
        play(q, stream, 130, 30);
        q.restore(mid, { rewind: true, key: KEY });
        play(q, stream, 130, 10);
        const r = loadPolicy(q.save({ key: KEY }), { key: KEY });
        assert.deepEqual(r.privacy(), q.privacy());
        assert.ok(r.privacy().releases >= after);
      });
    }
  }

  test('the releases rewound past are recorded in the snapshot and checked', () => {
    const p = make('adaprivate-ts'); // batch 25
    play(p, stream, 0, 60); // 2 releases
    const old = p.snapshot({ key: KEY });
    play(p, stream, 60, 40); // 4 releases
    p.restore(old, { rewind: true, key: KEY });
    const snap = p.snapshot({ key: KEY }) as unknown as { state: { base: { rewound?: number } } };
    assert.equal(snap.state.base.rewound, 2);
    assert.equal(p.privacy().releases, 4);
    play(p, stream, 60, 40); // batches 3 and 4 again: 6 releases, batches 3 and 4 composed twice
    assert.equal(p.privacy().releases, 6);
    const q = loadPolicy(p.save({ key: KEY }), { key: KEY });
    assert.equal(q.privacy().releases, 6);
    assert.equal(q.privacy().epsilon, p.privacy().epsilon);
  });
});
