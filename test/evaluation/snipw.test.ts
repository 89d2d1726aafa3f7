import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { snipw } from '../../src/evaluation/snipw.js';
import { HAND } from '../fixtures/evaluation/handInput.js';

describe('snipw', () => {
  it('is sum w r / sum w (hand-computed: 2.6 / 6.6), inside the reward range', () => {
    const e = snipw(HAND, { resamples: 200, seed: 3 });
    assert.equal(e.estimator, 'snipw');
    assert.ok(Math.abs(e.value - 2.6 / 6.6) < 1e-12, String(e.value));
    assert.ok(e.interval[0] >= 0 && e.interval[1] <= 1, `${e.interval}`);
  });
});
