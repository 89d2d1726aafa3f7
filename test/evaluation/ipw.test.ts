import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { effectiveSampleSize, importanceWeights } from '../../src/evaluation/importanceWeights.js';
import { ipw } from '../../src/evaluation/ipw.js';
import { HAND } from '../fixtures/evaluation/handInput.js';

describe('ipw', () => {
  it('is (1/n) sum w_t r_t with w_t = pi(a_t|x_t) / p_t (hand-computed: 2.6 / 3)', () => {
    assert.deepEqual(Array.from(importanceWeights(HAND)), [1.6, 4, 1]);
    const e = ipw(HAND, { resamples: 100, seed: 1 });
    assert.equal(e.estimator, 'ipw');
    assert.ok(Math.abs(e.value - 2.6 / 3) < 1e-12, String(e.value));
    assert.ok(Math.abs(e.effectiveSampleSize - 6.6 ** 2 / 19.56) < 1e-12, String(e.effectiveSampleSize));
    assert.equal(e.rounds, 3);
    assert.ok(e.interval[0] <= e.value && e.value <= e.interval[1], `${e.interval}`);
  });

  it('refuses inputs whose arrays disagree in length, naming them', () => {
    assert.throws(
      () => ipw({ ...HAND, target: Float64Array.of(1) }),
      /target must have one probability per arm \(6\)\. Got 1\./,
    );
    assert.throws(
      () => ipw({ ...HAND, actions: Int32Array.of(0) }),
      /rewards, actions and propensities must have n = 3/,
    );
  });

  it('effective sample size is n for equal weights and 1 for a single non-zero weight', () => {
    assert.equal(effectiveSampleSize(Float64Array.of(2, 2, 2)), 3);
    assert.equal(effectiveSampleSize(Float64Array.of(0, 5, 0)), 1);
    assert.equal(effectiveSampleSize(Float64Array.of(0, 0)), 0);
  });
});
