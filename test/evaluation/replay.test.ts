import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replay } from '../../src/evaluation/replay.js';
import { HAND } from '../fixtures/evaluation/handInput.js';

describe('replay', () => {
  it('averages rewards over matches m_t = pi(a_t|x_t) (hand-computed: 1.3 / 2.3, ESS 2.3)', () => {
    const e = replay(HAND, { resamples: 50, seed: 1 });
    assert.ok(Math.abs(e.value - 1.3 / 2.3) < 1e-12, String(e.value));
    assert.ok(Math.abs(e.effectiveSampleSize - 2.3) < 1e-12);
  });

  it('with a one-hot target it is the mean reward of the matched rounds', () => {
    const oneHot = { ...HAND, target: Float64Array.of(0, 1, 0, 1, 0, 1) }; // matches rounds 0 and 2
    const e = replay(oneHot, { resamples: 50, seed: 1 });
    assert.equal(e.value, 1);
    assert.equal(e.effectiveSampleSize, 2);
  });
});
