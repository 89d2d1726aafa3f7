// The last batch of the AdaPrivate family (BatchedRidgePolicy.onFinish): a partial batch is released
// once by finish(), with the sigma of the full batches; an empty one is not released; the non-private
// batched policies (LinUCB, LinTS) release nothing. Kills the StrykerJS mutants of the onFinish
// condition (docs/privacy.md, "Mutation testing").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPolicy, type Policy, type PolicyId, type PolicyOptions } from '../../src/policies/index.js';
import type { LedgerEntry } from '../../src/privacy/index.js';
import { makeStream, play } from './helpers.js';

const B = 5;
const FAMILY: readonly PolicyId[] = [
  'adaprivate-ts',
  'adaprivate-ucb',
  'adaprivate-ts-adaptive',
  'adaprivate-ts-amp',
];
const stream = makeStream(41, 200, 3, 4);

function build(id: PolicyId, horizon: number): Policy {
  const o: Record<string, unknown> = { dim: 4, horizon, seed: 2, noiseSeed: 9, epsilon: 1, batchSize: B };
  if (id === 'adaprivate-ts-amp') Object.assign(o, { q: 0.5, orders: 'paper' });
  return createPolicy(id, o as unknown as PolicyOptions);
}

interface State {
  readonly base: { readonly ledger: { readonly head: LedgerEntry[]; readonly tail: LedgerEntry[] } };
  readonly own: { readonly b: string; readonly s: string };
}
const stateOf = (p: Policy) => p.snapshot().state as State;
const entries = (p: Policy) => {
  const { head, tail } = stateOf(p).base.ledger;
  return [...head, ...tail];
};

for (const id of FAMILY) {
  test(`${id}: finish() releases a partial last batch exactly once, with the sigma of the full batches`, () => {
    const p = build(id, 53); // 10 full batches of 5, then 3 rounds
    play(p, stream, 0, 53);
    assert.equal(p.privacy().releases, 10);
    const before = stateOf(p);
    p.finish();
    const after = stateOf(p);
    assert.equal(p.privacy().releases, 11);
    assert.notEqual(after.own.b, before.own.b, 'the partial batch changed the released b');
    const all = entries(p);
    const last = all.at(-1)!;
    assert.equal(last.lastPartition, 11, 'the partial batch is the 11th partition');
    for (const e of all) {
      assert.equal(e.sigma, all[0]!.sigma, `${id}: sigma of partition ${e.partition}`);
      assert.deepEqual(e.event, all[0]!.event);
    }
    // a second finish() is a no-op
    p.finish();
    assert.equal(p.privacy().releases, 11);
    assert.equal(stateOf(p).own.b, after.own.b);
  });

  test(`${id}: finish() after a full last batch releases nothing`, () => {
    const p = build(id, 50); // exactly 10 batches: nothing pending
    play(p, stream, 0, 50);
    const before = stateOf(p);
    const spent = p.privacy();
    assert.equal(spent.releases, 10);
    p.finish();
    const after = stateOf(p);
    assert.equal(p.privacy().releases, 10, `${id}: an empty batch was released`);
    assert.deepEqual(p.privacy(), spent);
    assert.equal(after.own.b, before.own.b, `${id}: finish() changed b with nothing pending`);
    assert.deepEqual(after.base.ledger, before.base.ledger);
  });
}

for (const id of ['linucb', 'lints'] as const) {
  test(`${id}: finish() releases nothing and keeps the estimate`, () => {
    const p = createPolicy(id, { dim: 4, horizon: 53, seed: 2 });
    play(p, stream, 0, 53);
    const before = JSON.stringify(p.snapshot().state);
    p.finish();
    assert.equal(p.privacy().releases, 0);
    const after = p.snapshot().state as { own: unknown };
    assert.deepEqual(after.own, (JSON.parse(before) as { own: unknown }).own);
  });
}

test('TS probabilities: the k < d path (k x k Cholesky) agrees with the k >= d path (d normals per draw)', () => {
  // d = 4; three arms (k < d: low-rank path) and the same three plus two copies of arm 0 (k = 5 >= d:
  // the direct path, where a copy ties with arm 0 and never wins). Same state, 40,000 draws each.
  const p = createPolicy('adaprivate-ts', {
    dim: 4,
    horizon: 1000,
    epsilon: 1,
    batchSize: 5,
    seed: 3,
    noiseSeed: 9,
  });
  const arms = [0.5, 0.5, 0, 0, 0, 0.6, 0.6, 0, 0.3, 0, 0.3, 0.6];
  for (let i = 0; i < 2; i++) {
    p.select(new Float64Array(arms), 3);
    p.update(i % 2);
  }
  const low = p.probabilities(new Float64Array(arms), 3, { samples: 40_000 });
  const copies = [...arms, ...arms.slice(0, 4), ...arms.slice(0, 4)];
  const full = p.probabilities(new Float64Array(copies), 5, { samples: 40_000 });
  assert.equal(full.probabilities[3], 0);
  assert.equal(full.probabilities[4], 0);
  let spread = 0;
  for (let a = 0; a < 3; a++) {
    const x = low.probabilities[a]!;
    const y = full.probabilities[a]!;
    if (x > 0.05 && x < 0.95) spread++;
    // two estimates: 5 standard errors of their difference (false alarm ~1e-6 per arm)
    const tol = 5 * Math.sqrt((2 * Math.max(x * (1 - x), 1e-4)) / 40_000);
    assert.ok(Math.abs(x - y) <= tol, `arm ${a}: low-rank ${x}, direct ${y}, tolerance ${tol}`);
  }
  assert.ok(spread >= 2, `the state must spread the probabilities: ${Array.from(low.probabilities)}`);
});

test('TS probabilities (k < d): a copy of an earlier arm never wins; dependent arms sum to 1', () => {
  const p = createPolicy('adaprivate-ts', { dim: 6, horizon: 1000, epsilon: 1, seed: 5 });
  const a0 = [0.4, 0.1, 0.2, 0, 0.3, 0.1];
  const a1 = [0.1, 0.5, 0, 0.2, 0, 0.3];
  const mid = a0.map((v, i) => (v + a1[i]!) / 2); // linearly dependent on arms 0 and 1
  const r = p.probabilities(new Float64Array([...a0, ...a1, ...a0, ...mid]), 4, { samples: 5000 });
  assert.equal(r.probabilities[2], 0, 'the copy of arm 0');
  let sum = 0;
  for (const x of r.probabilities) sum += x;
  assert.ok(Math.abs(sum - 1) < 1e-12);
  assert.ok(r.probabilities[0]! > 0 && r.probabilities[1]! > 0);
});
