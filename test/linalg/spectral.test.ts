// Tests of minEigenvalueSpd and inverseSpectralNorm against ml-matrix's EigenvalueDecomposition.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EigenvalueDecomposition } from 'ml-matrix';
import { cholesky, cholUpdate, inverseSpectralNorm, minEigenvalueSpd } from '../../src/linalg/index.js';
import { randomSpd, randomVector, sizeAndSeed, toMatrix } from './spd.js';

const refMinEig = (a: Float64Array, n: number): number =>
  Math.min(...new EigenvalueDecomposition(toMatrix(a, n), { assumeSymmetric: true }).realEigenvalues);

describe('minEigenvalueSpd / inverseSpectralNorm', () => {
  it('diag(4, 1) has smallest eigenvalue 1', () => {
    const work = new Float64Array(4);
    assert.ok(Math.abs(minEigenvalueSpd(Float64Array.of(2, 0, 0, 1), 2, work) - 1) < 1e-10);
    assert.ok(Math.abs(Math.abs(work[1]!) - 1) < 1e-6, 'eigenvector e_2 left in work');
  });

  it('property: matches ml-matrix within 1e-7 relative; 1/spectral norm agrees; an upper bound', () => {
    fc.assert(
      fc.property(sizeAndSeed, ({ n, seed }) => {
        const a = randomSpd(n, seed, 0.5);
        const l = new Float64Array(n * n);
        assert.ok(cholesky(a, n, l));
        const work = new Float64Array(2 * n);
        const got = minEigenvalueSpd(l, n, work);
        const want = refMinEig(a, n);
        const rel = (got - want) / want;
        assert.ok(Math.abs(rel) < 1e-7, `n=${n} seed=${seed}: got ${got}, want ${want}, rel ${rel}`);
        assert.ok(rel > -1e-12, 'a Rayleigh-quotient estimate is an upper bound on lambda_min');
        const norm = inverseSpectralNorm(l, n, work);
        assert.ok(Math.abs(norm * want - 1) < 1e-7);
      }),
      { numRuns: 40, seed: 4 },
    );
  });

  it('nearly equal smallest eigenvalues (ratio 0.989, n = 30) converge to 1e-9 relative by default', () => {
    const n = 30;
    const a = randomSpd(n, 806906, 0.5); // eigenvalues 0.50005, 0.50545, ... (found by fast-check)
    const l = new Float64Array(n * n);
    cholesky(a, n, l);
    const want = refMinEig(a, n);
    const got = minEigenvalueSpd(l, n, new Float64Array(2 * n));
    assert.ok(Math.abs(got / want - 1) < 1e-9, `got ${got}, want ${want}`);
  });

  it('a repeated smallest eigenvalue (A = 2 I with one larger direction) is still found', () => {
    const n = 6;
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) a[i * n + i] = 2;
    a[0] = 9;
    const l = new Float64Array(n * n);
    cholesky(a, n, l);
    assert.ok(Math.abs(minEigenvalueSpd(l, n, new Float64Array(2 * n)) - 2) < 1e-10);
  });

  it('warm start: after a small rank-one update, 3 iterations from the previous vector beat a cold start', () => {
    const n = 30;
    const a = randomSpd(n, 77, 0.5);
    const l = new Float64Array(n * n);
    cholesky(a, n, l);
    const work = new Float64Array(2 * n);
    minEigenvalueSpd(l, n, work);
    const x = randomVector(n, 5);
    for (let i = 0; i < n; i++) x[i] = x[i]! * 0.05;
    cholUpdate(l, n, x, new Float64Array(n));
    const exact = minEigenvalueSpd(l, n, new Float64Array(2 * n));
    const warm = minEigenvalueSpd(l, n, work, 3, 0, true);
    assert.ok(Math.abs(warm / exact - 1) < 1e-4, `warm ${warm} vs ${exact}`);
    const cold = minEigenvalueSpd(l, n, new Float64Array(2 * n), 3, 0, false);
    assert.ok(Math.abs(cold / exact - 1) > Math.abs(warm / exact - 1), 'warm start is closer than cold');
  });

  it('n = 0 gives spectral norm 0 and never throws', () => {
    assert.equal(inverseSpectralNorm(new Float64Array(0), 0, new Float64Array(0)), 0);
  });
});
