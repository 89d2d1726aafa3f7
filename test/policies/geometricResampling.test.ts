// The logged inverse propensity of selectWithPropensity (issue 27): geometric resampling for
// Thompson sampling (Neu & Bartok 2013) makes 1{chosen = a} x inversePropensity unbiased for 1 on
// every arm, including one the posterior picks 0.1% of the time, where the Monte Carlo propensity
// (the chosen draw counted as a sample) gives about 0.2.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { directDraws } from '../../src/policies/BatchedRidgePolicy.js';
import { createPolicy, DEFAULT_RESAMPLING_CAP, type Policy } from '../../src/policies/index.js';
import { restoreFromStore } from '../../src/policies/restoreFromStore.js';

/** LinTS on d = 2 with a posterior frozen after 22 observed rounds (decisions are discarded). */
function frozenLinTs(seed = 3): Policy {
  const p = createPolicy('lints', { dim: 2, horizon: 1_000_000, seed, v: 1 });
  for (let i = 0; i < 11; i++) {
    p.observe(Float64Array.of(1, 0), 0.9);
    p.observe(Float64Array.of(0, 1), 0.1);
  }
  return p;
}
// arm 0 ~90.6%, arm 1 ~9.3%, arm 2 (the zero vector) ~0.10%
const X = Float64Array.of(1, 0, 0.6, 0.6, 0, 0);

describe('selectWithPropensity: inverse propensity by geometric resampling', () => {
  test('on a frozen posterior with a 0.1% arm, mean of 1{chosen = a} x logged inverse propensity is 1 for every arm', () => {
    const p = frozenLinTs();
    const exact = p.probabilities(X, 3, { samples: 2_000_000 }).probabilities;
    assert.ok(exact[2]! > 0.0006 && exact[2]! < 0.0016, `the rare arm has probability ${exact[2]}`);
    const n = 150_000;
    const sum = [0, 0, 0];
    const sumSq = [0, 0, 0];
    const biasedSum = [0, 0, 0];
    let draws = 0;
    for (let i = 0; i < n; i++) {
      const r = p.selectWithPropensity(X, 3, { samples: 20 }); // the display propensity: 20 + 1 draws
      p.discard();
      const ip = r.inversePropensity;
      assert.equal(ip.kind, 'geometric-resampling');
      assert.ok(Number.isSafeInteger(ip.value) && ip.value >= 1);
      assert.equal(ip.cap, DEFAULT_RESAMPLING_CAP);
      assert.equal(ip.capped, false);
      assert.ok(r.propensity > 0); // no logged propensity is 0
      sum[r.arm] = sum[r.arm]! + ip.value;
      sumSq[r.arm] = sumSq[r.arm]! + ip.value * ip.value;
      biasedSum[r.arm] = biasedSum[r.arm]! + 1 / r.propensity;
      draws += ip.value;
    }
    for (let a = 0; a < 3; a++) {
      const mean = sum[a]! / n;
      const se = Math.sqrt((sumSq[a]! / n - mean * mean) / n);
      assert.ok(Math.abs(mean - 1) <= 4 * se, `arm ${a}: mean ${mean}, Monte Carlo SE ${se}`);
    }
    // the old weight 1/propensity (Monte Carlo, chosen draw counted) under-weights the rare arm
    assert.ok(biasedSum[2]! / n < 0.6, `1/propensity on the rare arm averages ${biasedSum[2]! / n}`);
    // expected cost: K = 3 redraws per decision
    assert.ok(Math.abs(draws / n - 3) < 0.2, `redraws per decision ${draws / n}`);
  });

  test('d = 6, K = 4: the draws made without set-up and the prepared ones together keep M unbiased on every arm', () => {
    // BatchedRidgePolicy makes the first directDraws(6, 4) = 2 draws as `choose` does, then prepares
    // the cheaper ones: both must draw the same choice, or 1{chosen = a} x M is biased on some arm
    assert.equal(directDraws(6, 4), 2);
    const p = createPolicy('lints', { dim: 6, horizon: 1_000_000, seed: 11, v: 0.6 });
    const e = (i: number) => Float64Array.from({ length: 6 }, (_, j) => (j === i ? 1 : 0.1));
    for (let r = 0; r < 4; r++)
      for (let i = 0; i < 6; i++) p.observe(e(i), i === 0 ? 0.8 : i === 1 ? 0.6 : 0.2);
    const x = new Float64Array(4 * 6);
    x.set(e(0), 0);
    x.set(e(1), 6);
    x.set(
      e(2).map((v) => 2 * v),
      12,
    );
    x.set(
      e(3).map((v, j) => v + 0.2 * j),
      18,
    );
    const exact = p.probabilities(x, 4, { samples: 400_000 }).probabilities;
    assert.ok(Math.min(...exact) > 0.01 && Math.max(...exact) < 0.8, `probabilities ${Array.from(exact)}`);
    const n = 40_000;
    const sum = [0, 0, 0, 0];
    const sumSq = [0, 0, 0, 0];
    const large = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) {
      const r = p.selectWithInversePropensity(x, 4);
      p.discard();
      const m = r.inversePropensity.value;
      sum[r.arm] = sum[r.arm]! + m;
      sumSq[r.arm] = sumSq[r.arm]! + m * m;
      if (m > 2) large[r.arm] = large[r.arm]! + 1;
    }
    for (let a = 0; a < 4; a++) {
      const mean = sum[a]! / n;
      const se = Math.sqrt((sumSq[a]! / n - mean * mean) / n);
      assert.ok(Math.abs(mean - 1) <= 4 * se, `arm ${a}: mean ${mean}, Monte Carlo SE ${se}`);
    }
    // both kinds of draw were used: M > 2 (prepared draws) on every arm
    assert.ok(
      large.every((c) => c > 100),
      `M > 2 per arm: ${large}`,
    );
  });

  test('redraws are fresh for every decision, and the exploration stream is unchanged', () => {
    const a = frozenLinTs(5);
    const b = frozenLinTs(5);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const r = a.selectWithPropensity(X, 3, { samples: 10 });
      a.discard();
      assert.equal(b.select(X, 3), r.arm); // the same choices as plain select
      b.discard();
      if (r.arm === 1) seen.add(String(r.inversePropensity.value));
    }
    // arm 1 (p ~ 0.09) gets geometric counts with mean ~11: a reused stream would repeat one value
    assert.ok(seen.size >= 5, `distinct redraw counts on arm 1: ${[...seen].join(',')}`);
  });

  test('the resampling stream is saved in snapshots; a store-serialised restore uses a secure one', () => {
    const a = frozenLinTs(7);
    for (let i = 0; i < 50; i++) {
      a.selectWithPropensity(X, 3, { samples: 5 });
      a.discard();
    }
    const snap = a.snapshot();
    const b = frozenLinTs(7);
    b.restore(snap);
    const c = restoreFromStore('lints', a.config as never, JSON.parse(JSON.stringify(snap)));
    const va: number[] = [];
    const vb: number[] = [];
    const vc: number[] = [];
    for (let i = 0; i < 300; i++) {
      const ra = a.selectWithPropensity(X, 3, { samples: 5 });
      a.discard();
      va.push(ra.inversePropensity.value);
      vb.push(b.selectWithPropensity(X, 3, { samples: 5 }).inversePropensity.value);
      b.discard();
      vc.push(c.selectWithPropensity(X, 3, { samples: 5 }).inversePropensity.value);
      c.discard();
    }
    assert.deepEqual(vb, va);
    assert.notDeepEqual(vc, va);
  });

  test('the cap is applied and logged; deterministic policies log an exact 1', () => {
    const p = frozenLinTs(9);
    let capped = 0;
    for (let i = 0; i < 2000; i++) {
      const r = p.selectWithPropensity(X, 3, { samples: 5, resamplingCap: 2 });
      p.discard();
      assert.ok(r.inversePropensity.value <= 2);
      assert.equal(r.inversePropensity.cap, 2);
      if (r.inversePropensity.capped) capped++;
    }
    assert.ok(capped > 0);
    assert.throws(
      () => p.selectWithPropensity(X, 3, { resamplingCap: 0 }),
      /resamplingCap must be a positive integer/,
    );
    const ucb = createPolicy('linucb', { dim: 2, horizon: 100, seed: 1 });
    const r = ucb.selectWithPropensity(X, 3);
    assert.deepEqual(r.inversePropensity, { kind: 'exact', value: 1, cap: null, capped: false });
  });

  test('selectWithInversePropensity: the same arms and logged inverse propensities as selectWithPropensity, without the Monte Carlo', () => {
    const cases: [string, () => Policy, number][] = [
      ['lints', () => frozenLinTs(5), 0],
      ['lints, floor 0.3', () => frozenLinTs(6), 0.3],
      [
        'adaprivate-ts',
        () =>
          createPolicy('adaprivate-ts', {
            dim: 2,
            horizon: 1000,
            epsilon: 1,
            batchSize: 3,
            seed: 4,
            noiseSeed: 8,
          }),
        0,
      ],
      ['linucb, floor 0.3', () => createPolicy('linucb', { dim: 2, horizon: 1000, seed: 2 }), 0.3],
    ];
    for (const [name, make, uniformShare] of cases) {
      const a = make();
      const b = make();
      for (let i = 0; i < 300; i++) {
        const ra = a.selectWithPropensity(X, 3, { samples: 7, uniformShare });
        const rb = b.selectWithInversePropensity(X, 3, { uniformShare });
        assert.equal(rb.arm, ra.arm, `${name}, decision ${i}`);
        assert.deepEqual(rb.inversePropensity, ra.inversePropensity, `${name}, decision ${i}`);
        assert.equal(rb.explorationFloor, ra.explorationFloor);
        // learn from half of them: the states (and the streams) stay equal
        if (i % 2 === 0) {
          a.update(i % 3 === 0 ? 1 : 0);
          b.update(i % 3 === 0 ? 1 : 0);
        } else {
          a.discard();
          b.discard();
        }
      }
      assert.deepEqual(b.scores(X, 3), a.scores(X, 3), name);
      assert.equal(b.privacy().releases, a.privacy().releases);
    }
  });
});
