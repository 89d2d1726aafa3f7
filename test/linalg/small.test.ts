// Tests of the small kernels: dot, axpy, norm2, symRankOneUpdate, logDetFromCholesky, invQuadForm.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EigenvalueDecomposition } from 'ml-matrix';
import {
  axpy,
  cholesky,
  cholSolve,
  dot,
  invQuadForm,
  logDetFromCholesky,
  norm2,
  symRankOneUpdate,
} from '../../src/linalg/index.js';
import { randomSpd, randomVector, sizeAndSeed, toMatrix } from './spd.js';

describe('vector kernels', () => {
  it('dot, axpy and norm2 on examples, using only the first n entries', () => {
    assert.equal(dot(Float64Array.of(1, 2, 100), Float64Array.of(3, 4, 100), 2), 11);
    const y = Float64Array.of(1, 1, 7);
    axpy(2, Float64Array.of(1, 2, 9), y, 2);
    assert.deepEqual([...y], [3, 5, 7]);
    assert.equal(norm2(Float64Array.of(3, 4, 12), 2), 5);
    assert.equal(norm2(new Float64Array(0), 0), 0);
  });
});

describe('symRankOneUpdate', () => {
  it('I + (1,2)(1,2)^T = [[2,2],[2,5]] and stays exactly symmetric', () => {
    const a = Float64Array.of(1, 0, 0, 1);
    symRankOneUpdate(a, 2, Float64Array.of(1, 2), 1);
    assert.deepEqual([...a], [2, 2, 2, 5]);
    const n = 7;
    const b = randomSpd(n, 1);
    symRankOneUpdate(b, n, randomVector(n, 2), -0.37);
    for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) assert.equal(b[i * n + j], b[j * n + i]);
  });
});

describe('logDetFromCholesky and invQuadForm', () => {
  it('examples with L = [[2,0],[1,2]]', () => {
    const l = Float64Array.of(2, 0, 1, 2);
    assert.ok(Math.abs(logDetFromCholesky(l, 2) - Math.log(16)) < 1e-15);
    assert.equal(invQuadForm(l, 2, Float64Array.of(4, 6), new Float64Array(2)), 8);
  });

  it('property: log det matches the sum of log eigenvalues (ml-matrix); invQuadForm = x^T A^{-1} x', () => {
    fc.assert(
      fc.property(sizeAndSeed, ({ n, seed }) => {
        const a = randomSpd(n, seed);
        const l = new Float64Array(n * n);
        assert.ok(cholesky(a, n, l));
        const eig = new EigenvalueDecomposition(toMatrix(a, n), { assumeSymmetric: true }).realEigenvalues;
        const want = eig.reduce((s, v) => s + Math.log(v), 0);
        const got = logDetFromCholesky(l, n);
        assert.ok(Math.abs(got - want) < 1e-9 * (1 + Math.abs(want)), `n=${n}: ${got} vs ${want}`);

        const x = randomVector(n, seed, 'x');
        const z = new Float64Array(n);
        cholSolve(l, n, x, z);
        let q = 0;
        for (let i = 0; i < n; i++) q += x[i]! * z[i]!;
        const xCopy = Float64Array.from(x);
        const got2 = invQuadForm(l, n, x, new Float64Array(n));
        assert.ok(Math.abs(got2 - q) < 1e-9 * (1 + q), `n=${n}: ${got2} vs ${q}`);
        assert.deepEqual(x, xCopy);
      }),
      { numRuns: 40, seed: 5 },
    );
  });
});
