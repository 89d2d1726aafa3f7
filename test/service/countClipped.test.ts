import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countClipped } from '../../src/service/countClipped.js';

test('countClipped: vectors with norm above 1 count; unit vectors off by rounding do not', () => {
  const unit = 1 / Math.sqrt(3);
  const f = new Float64Array([3, 4, 0, 0.6, 0.8, 0, unit, unit, unit, 0, 0, 1.0000001, 0, 0, 0]);
  assert.equal(countClipped(f, 5, 3), 2); // [3,4,0] and [0,0,1.0000001]
  assert.equal(countClipped(f, 2, 3), 1, 'only the first k rows');
});
