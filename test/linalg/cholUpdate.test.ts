import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cholesky, cholUpdate, symRankOneUpdate } from '../../src/linalg/index.js';
import { randomSpd, randomVector, relDiff, sizeAndSeed } from './spd.js';

describe('cholUpdate', () => {
  it('updates the factor of I by x = (1, 0) to diag(sqrt 2, 1)', () => {
    const l = Float64Array.of(1, 0, 0, 1);
    cholUpdate(l, 2, Float64Array.of(1, 0), new Float64Array(2));
    assert.deepEqual([...l], [Math.SQRT2, 0, 0, 1]);
  });

  it('property: update equals refactorisation of A + x x^T (three successive updates), x untouched', () => {
    fc.assert(
      fc.property(sizeAndSeed, fc.double({ min: 0.01, max: 10, noNaN: true }), ({ n, seed }, scale) => {
        const a = randomSpd(n, seed);
        const l = new Float64Array(n * n);
        assert.ok(cholesky(a, n, l));
        const work = new Float64Array(n);
        for (let t = 0; t < 3; t++) {
          const x = randomVector(n, seed + t, 'update');
          for (let i = 0; i < n; i++) x[i] = x[i]! * scale;
          const xCopy = Float64Array.from(x);
          cholUpdate(l, n, x, work);
          assert.deepEqual(x, xCopy, 'x must not be modified');
          symRankOneUpdate(a, n, x, 1);
        }
        const ref = new Float64Array(n * n);
        assert.ok(cholesky(a, n, ref));
        for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) assert.equal(l[i * n + j], 0);
        const e = relDiff(l, ref, n * n);
        assert.ok(e < 1e-9, `n=${n} seed=${seed} scale=${scale}: rel diff ${e}`);
      }),
      { numRuns: 60, seed: 2 },
    );
  });

  it('a zero x leaves the factor unchanged', () => {
    const a = randomSpd(5, 9);
    const l = new Float64Array(25);
    cholesky(a, 5, l);
    const before = Float64Array.from(l);
    cholUpdate(l, 5, new Float64Array(5), new Float64Array(5));
    assert.deepEqual(l, before);
  });
});
