// The service's store path back to a policy (src/policies/restoreFromStore.ts): a fresh policy from
// the database's snapshot, outside the process-wide lineage registry, while the library's own
// restore/loadPolicy keep refusing the same snapshot. And PolicyInfo.releasesAtSelect says which
// policies release inside select.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPolicy, type Policy, policyIds, policyInfo } from '../../src/policies/index.js';
import { restoreFromStore } from '../../src/policies/restoreFromStore.js';
import { make, makeStream, play, roundFeatures } from './helpers.js';

const stream = makeStream(5, 200, 3, 4);

function tsOptions(p: Policy): never {
  return p.config as never;
}

test('restoreFromStore loads a snapshot behind the lineage in this process; loadPolicy refuses it', () => {
  const p = make('adaprivate-ts', { batchSize: 5 });
  const older = p.snapshot(); // 0 releases, lineage registered
  play(p, stream, 0, 5); // one release made in this process, not in `older`
  assert.equal(p.privacy().releases, 1);
  assert.throws(() => loadPolicy(older), /lineage .* has already made 1 releases/);
  const fromStore = restoreFromStore('adaprivate-ts', tsOptions(p), older);
  assert.equal(fromStore.privacy().releases, 0);
  // the store's copy learns and releases; the library holder is not superseded by it
  play(fromStore, stream, 5, 5);
  assert.equal(fromStore.privacy().releases, 1);
  fromStore.snapshot(); // does not register the copy as the lineage's holder
  play(p, stream, 5, 5);
  assert.equal(p.privacy().releases, 2);
  // the library rule is unchanged: a load hands the lineage over and supersedes p
  const loaded = loadPolicy(p.snapshot());
  assert.throws(() => play(p, stream, 10, 1), /continued by another policy/);
  play(loaded, stream, 10, 5);
  assert.equal(loaded.privacy().releases, 3);
});

test('restoreFromStore refuses a snapshot of another policy or configuration (the usual checks apply)', () => {
  const p = make('adaprivate-ts', { batchSize: 5 });
  const snap = p.snapshot();
  assert.throws(
    () => restoreFromStore('adaprivate-ucb', make('adaprivate-ucb').config as never, snap),
    /'id'/,
  );
  assert.throws(
    () => restoreFromStore('adaprivate-ts', { ...(p.config as object), batchSize: 6 } as never, snap),
    /config\.batchSize/,
  );
});

test('two store copies of a DGS-LinUCB snapshot can both select (the database picks which release commits)', () => {
  const p = make('dgs-linucb');
  play(p, stream, 0, 3);
  const snap = p.snapshot();
  const a = restoreFromStore('dgs-linucb', p.config as never, snap);
  const b = restoreFromStore('dgs-linucb', p.config as never, snap);
  const before = a.privacy().releases;
  a.select(roundFeatures(stream, 3), stream.k); // new data since the last select: releases
  b.select(roundFeatures(stream, 3), stream.k);
  assert.equal(a.privacy().releases, before + 1);
  assert.equal(b.privacy().releases, before + 1);
  // a library load of the same snapshot supersedes p, whose select (a release) is then refused
  loadPolicy(snap);
  assert.throws(() => p.select(roundFeatures(stream, 3), stream.k), /continued by another policy/);
});

test('releasesAtSelect is true exactly for the policies whose select after new data releases', () => {
  for (const id of policyIds) {
    const p = make(id);
    play(p, stream, 0, 4);
    const before = p.privacy().releases;
    p.select(roundFeatures(stream, 4), stream.k);
    p.discard();
    assert.equal(p.privacy().releases > before, policyInfo(id).releasesAtSelect, id);
  }
  assert.deepEqual(
    policyIds.filter((id) => policyInfo(id).releasesAtSelect),
    ['dgs-linucb'],
  );
});
