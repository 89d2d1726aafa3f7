// The explicit exploration floor of selectWithPropensity (issue 27): a mixture with uniform of
// weight gamma, whose floor gamma / K is logged; a deterministic policy's logged propensity is then
// exact (checked against the empirical frequencies of its choices), and a Thompson policy's inverse
// propensity is the geometric resampling of the same mixture (unbiased for every arm).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPolicy, type Policy } from '../../src/policies/index.js';

const X = Float64Array.of(1, 0, 0.6, 0.6, 0, 0, 0, 1);
const K = 4;

function frozen(id: 'linucb' | 'lints', seed = 3): Policy {
  const p = createPolicy(id, { dim: 2, horizon: 1_000_000, seed, ...(id === 'lints' ? { v: 1 } : {}) });
  for (let i = 0; i < 11; i++) {
    p.observe(Float64Array.of(1, 0), 0.9);
    p.observe(Float64Array.of(0, 1), 0.1);
  }
  return p;
}

describe('selectWithPropensity with an exploration floor (uniformShare)', () => {
  test('LinUCB: the logged propensity is exactly gamma/K + (1 - gamma) 1{a = its choice}, and matches the frequencies', () => {
    const p = frozen('linucb');
    const gamma = 0.2;
    const own = p.select(X, K);
    p.discard();
    const n = 40_000;
    const counts = new Float64Array(K);
    const weighted = new Float64Array(K);
    for (let i = 0; i < n; i++) {
      const r = p.selectWithPropensity(X, K, { uniformShare: gamma });
      p.discard();
      const expected = gamma / K + (r.arm === own ? 1 - gamma : 0);
      assert.equal(r.propensity, expected);
      assert.equal(r.explorationFloor, gamma / K);
      assert.equal(r.inversePropensity.kind, 'exact');
      assert.equal(r.inversePropensity.value, 1 / expected);
      counts[r.arm] = counts[r.arm]! + 1;
      weighted[r.arm] = weighted[r.arm]! + r.inversePropensity.value;
    }
    for (let a = 0; a < K; a++) {
      const p0 = gamma / K + (a === own ? 1 - gamma : 0);
      const se = Math.sqrt((p0 * (1 - p0)) / n);
      assert.ok(Math.abs(counts[a]! / n - p0) <= 4 * se, `arm ${a}: frequency ${counts[a]! / n} vs ${p0}`);
      // mean of 1{chosen = a} / propensity is 1 (IPW unbiased)
      const seW = Math.sqrt((1 / p0 - 1) / n);
      assert.ok(Math.abs(weighted[a]! / n - 1) <= 4 * seW, `arm ${a}: ${weighted[a]! / n}`);
    }
  });

  test('LinTS: 1{chosen = a} x the logged inverse propensity (resampling of the mixture) averages 1 on every arm', () => {
    const p = frozen('lints');
    const n = 60_000;
    const sum = new Float64Array(K);
    const sumSq = new Float64Array(K);
    for (let i = 0; i < n; i++) {
      const r = p.selectWithPropensity(X, K, { samples: 10, uniformShare: 0.1 });
      p.discard();
      assert.equal(r.inversePropensity.kind, 'geometric-resampling');
      assert.ok(r.propensity >= 0.1 / K);
      assert.equal(r.explorationFloor, 0.1 / K);
      sum[r.arm] = sum[r.arm]! + r.inversePropensity.value;
      sumSq[r.arm] = sumSq[r.arm]! + r.inversePropensity.value ** 2;
    }
    for (let a = 0; a < K; a++) {
      const mean = sum[a]! / n;
      const se = Math.sqrt((sumSq[a]! / n - mean * mean) / n);
      assert.ok(Math.abs(mean - 1) <= 4 * se, `arm ${a}: mean ${mean}, SE ${se}`);
    }
  });

  test('without the option nothing changes (floor 0, the same choices as select); a bad gamma is refused by name', () => {
    const a = frozen('lints', 9);
    const b = frozen('lints', 9);
    for (let i = 0; i < 100; i++) {
      const r = a.selectWithPropensity(X, K, { samples: 5 });
      a.discard();
      assert.equal(r.explorationFloor, 0);
      assert.equal(b.select(X, K), r.arm);
      b.discard();
    }
    for (const bad of [-0.1, 1, Number.NaN]) {
      assert.throws(
        () => a.selectWithPropensity(X, K, { uniformShare: bad }),
        /uniformShare .* must be a number in \[0, 1\)/,
      );
    }
  });
});
