// argmaxFirst is the tie rule of every select and of exact probabilities: the first maximum wins.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { argmaxFirst } from '../../src/policies/argmaxFirst.js';

test('argmaxFirst returns the lowest index among the maxima of the first k values', () => {
  assert.equal(argmaxFirst(Float64Array.of(1, 3, 3), 3), 1);
  assert.equal(argmaxFirst(Float64Array.of(1, 3, 5), 2), 1); // only the first k count
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 12 }), (xs) => {
      const v = Float64Array.from(xs);
      assert.equal(argmaxFirst(v, v.length), xs.indexOf(Math.max(...xs)));
    }),
  );
});
