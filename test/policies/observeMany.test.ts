// Issue 24 item 5: observeMany reads every input value once; an array-like (or a Proxy) that answers
// differently on a second read cannot slip an unchecked value into learning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPolicy } from '../../src/policies/index.js';

const opts = { dim: 2, horizon: 100, seed: 1, epsilon: 1, batchSize: 2, noiseSeed: 3 } as const;

/** The released statistic b of a policy, decoded. */
function releasedB(p: ReturnType<typeof createPolicy>): Float64Array {
  const b = (p.snapshot().state as { own: { b: string } }).own.b;
  return new Float64Array(new Uint8Array(Buffer.from(b, 'base64')).buffer);
}

test('a rewards array-like that answers 1e6 on the second read is learned as it was checked', () => {
  let reads = 0;
  const rewards = {
    length: 2,
    get 0() {
      reads++;
      return reads === 1 ? 1 : 1e6;
    },
    get 1() {
      return 1;
    },
  };
  const p = createPolicy('adaprivate-ts', opts);
  p.observeMany(Float64Array.of(1, 0, 1, 0), rewards);
  assert.equal(reads, 1);
  // the same rounds with honest rewards give the same release (same seeded noise)
  const q = createPolicy('adaprivate-ts', opts);
  q.observeMany(Float64Array.of(1, 0, 1, 0), [1, 1]);
  assert.deepEqual(releasedB(p), releasedB(q));
  assert.ok(releasedB(p)[0]! < 100); // 1e6 never entered the sum
});

test('a Proxy over the rewards or features that changes its answers is read once per value', () => {
  const counts = new Map<string, number>();
  const honest = [0.5, 0.25];
  const rewards = new Proxy(honest, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && /^\d+$/.test(prop)) {
        const n = (counts.get(prop) ?? 0) + 1;
        counts.set(prop, n);
        return n === 1 ? Reflect.get(target, prop, receiver) : 1e6;
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  let featureReads = 0;
  const feats = new Proxy(Float64Array.of(0.6, 0.8, 0.8, 0.6), {
    get(target, prop) {
      if (typeof prop === 'string' && /^\d+$/.test(prop)) {
        featureReads++;
        return featureReads <= 4 ? target[Number(prop)] : 1e300;
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const p = createPolicy('adaprivate-ts', opts);
  p.observeMany(feats, rewards);
  assert.deepEqual([...counts.values()], [1, 1]);
  assert.equal(featureReads, 4);
  const q = createPolicy('adaprivate-ts', opts);
  q.observeMany(Float64Array.of(0.6, 0.8, 0.8, 0.6), honest);
  assert.deepEqual(releasedB(p), releasedB(q));
  assert.equal(p.clippedCount, 0);
});

test('a bad value is still refused, naming the row', () => {
  const p = createPolicy('adaprivate-ts', opts);
  assert.throws(() => p.observeMany(Float64Array.of(1, 0, 1, 0), [0.5, 2]), /Got 2 at row 1/);
  assert.equal(p.roundsLearned, 0);
});
