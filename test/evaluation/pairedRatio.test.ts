import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ipw } from '../../src/evaluation/ipw.js';
import { loggedValue } from '../../src/evaluation/loggedValue.js';
import { pairedRatio } from '../../src/evaluation/pairedRatio.js';
import { HAND } from '../fixtures/evaluation/handInput.js';

describe('pairedRatio', () => {
  it('pairs replicates: an estimate against itself is exactly 1, against the logged value its value ratio', () => {
    const a = ipw(HAND, { resamples: 200, seed: 2 });
    assert.deepEqual(pairedRatio(a, a), { ratio: 1, interval: [1, 1] });
    const b = loggedValue(HAND, { resamples: 200, seed: 2 });
    const r = pairedRatio(a, b);
    assert.ok(Math.abs(r.ratio - a.value / b.value) < 1e-12);
  });

  it('refuses estimates from different resamples', () => {
    const a = ipw(HAND, { resamples: 200, seed: 2 });
    const b = ipw(HAND, { resamples: 100, seed: 2 });
    assert.throws(
      () => pairedRatio(a, b),
      /same rounds and resamples\. Got 3 rounds x 200 resamples and 3 x 100\./,
    );
  });
});
