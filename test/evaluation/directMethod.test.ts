import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { directMethod, modelValues } from '../../src/evaluation/directMethod.js';
import { HAND } from '../fixtures/evaluation/handInput.js';

describe('directMethod', () => {
  it('averages sum_a pi(a|x) q(x,a) (hand-computed: (0.54 + 0.2 + 0.5) / 3), ESS n', () => {
    const v = modelValues(HAND);
    for (const [i, x] of [0.54, 0.2, 0.5].entries()) assert.ok(Math.abs(v[i]! - x) < 1e-12, `${i}: ${v[i]}`);
    const e = directMethod(HAND, { resamples: 50, seed: 1 });
    assert.ok(Math.abs(e.value - 1.24 / 3) < 1e-12, String(e.value));
    assert.equal(e.effectiveSampleSize, 3);
  });

  it('refuses an input without a reward model', () => {
    const { rewardModel: _q, ...bare } = HAND;
    assert.throws(
      () => directMethod(bare),
      /rewardModel must have one prediction per arm \(6\)\. Got none\./,
    );
  });
});
