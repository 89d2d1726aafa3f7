// Tests of forwardSolve, backSolveTransposed and cholSolve (the three triangular-solve kernels).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { backSolveTransposed, cholesky, cholSolve, forwardSolve } from '../../src/linalg/index.js';
import { matVec, randomSpd, randomVector, relDiff, sizeAndSeed } from './spd.js';

function lowerMatVec(l: Float64Array, n: number, y: Float64Array, transpose: boolean): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += (transpose ? l[k * n + i]! : l[i * n + k]!) * y[k]!;
    out[i] = s;
  }
  return out;
}

describe('triangular solves', () => {
  it('examples: L = [[2,0],[1,2]]', () => {
    const l = Float64Array.of(2, 0, 1, 2);
    const y = new Float64Array(2);
    forwardSolve(l, 2, Float64Array.of(4, 6), y);
    assert.deepEqual([...y], [2, 2]);
    backSolveTransposed(l, 2, Float64Array.of(4, 4), y);
    assert.deepEqual([...y], [1, 2]);
    cholSolve(l, 2, Float64Array.of(4, 6), y);
    assert.deepEqual([...y], [0.5, 1]);
  });

  it('property: L y = b, L^T z = y and (L L^T) z = b are solved (residuals), with and without aliasing', () => {
    fc.assert(
      fc.property(sizeAndSeed, ({ n, seed }) => {
        const a = randomSpd(n, seed);
        const l = new Float64Array(n * n);
        assert.ok(cholesky(a, n, l));
        const b = randomVector(n, seed);
        const bCopy = Float64Array.from(b);

        const y = new Float64Array(n);
        forwardSolve(l, n, b, y);
        assert.ok(relDiff(lowerMatVec(l, n, y, false), b, n) < 1e-10, 'forward residual');
        const z = new Float64Array(n);
        backSolveTransposed(l, n, b, z);
        assert.ok(relDiff(lowerMatVec(l, n, z, true), b, n) < 1e-10, 'back residual');
        const w = new Float64Array(n);
        cholSolve(l, n, b, w);
        assert.ok(relDiff(matVec(a, n, w), b, n) < 1e-8, `cholSolve residual n=${n}`);
        assert.deepEqual(b, bCopy, 'inputs untouched');

        const alias = Float64Array.from(b);
        forwardSolve(l, n, alias, alias);
        assert.deepEqual(alias, y);
        alias.set(b);
        backSolveTransposed(l, n, alias, alias);
        assert.deepEqual(alias, z);
        alias.set(b);
        cholSolve(l, n, alias, alias);
        assert.deepEqual(alias, w);
      }),
      { numRuns: 60, seed: 3 },
    );
  });
});
