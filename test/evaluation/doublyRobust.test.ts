import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { doublyRobust } from '../../src/evaluation/doublyRobust.js';
import { ipw } from '../../src/evaluation/ipw.js';
import { HAND } from '../fixtures/evaluation/handInput.js';

describe('doublyRobust', () => {
  it('is DM plus the weighted residual (hand-computed: (1.18 - 0.6 + 1.0) / 3)', () => {
    const e = doublyRobust(HAND, { resamples: 50, seed: 1 });
    assert.ok(Math.abs(e.value - 1.58 / 3) < 1e-12, String(e.value));
    assert.ok(Math.abs(e.effectiveSampleSize - ipw(HAND, { resamples: 1 }).effectiveSampleSize) < 1e-12);
  });

  it('with a zero reward model it is exactly IPW (same bootstrap seed: same interval)', () => {
    const zero = { ...HAND, rewardModel: new Float64Array(6) };
    const a = doublyRobust(zero, { resamples: 300, seed: 9 });
    const b = ipw(zero, { resamples: 300, seed: 9 });
    assert.equal(a.value, b.value);
    assert.deepEqual(a.interval, b.interval);
  });
});
