// Tests of certifiedMinEigenvalue: a lower bound on lambda_min that holds even when the inverse
// iteration has not converged (the case that matters for noise calibration).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EigenvalueDecomposition } from 'ml-matrix';
import { certifiedMinEigenvalue, cholesky, inverseSpectralNorm } from '../../src/linalg/index.js';
import { createRng } from '../../src/random/index.js';
import { multiplyLLt, randomSpd, sizeAndSeed, toMatrix } from './spd.js';

/** lambda_min of L L^T (the matrix the kernel certifies), by ml-matrix. */
function refMinEigOfFactor(l: Float64Array, n: number): number {
  const a = multiplyLLt(l, n);
  return Math.min(...new EigenvalueDecomposition(toMatrix(a, n), { assumeSymmetric: true }).realEigenvalues);
}

function factorOf(a: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  assert.ok(cholesky(a, n, l));
  return l;
}

describe('certifiedMinEigenvalue', () => {
  it('property: never above lambda_min; within 2 relMargin of it once the iteration converges', () => {
    fc.assert(
      fc.property(sizeAndSeed, ({ n, seed }) => {
        const l = factorOf(randomSpd(n, seed, 0.5), n);
        const want = refMinEigOfFactor(l, n);
        const got = certifiedMinEigenvalue(
          l,
          n,
          new Float64Array(2 * n),
          new Float64Array(n * n),
          1e-3,
          5000,
        );
        assert.ok(got <= want, `n=${n} seed=${seed}: bound ${got} above lambda_min ${want}`);
        assert.ok(got >= want * (1 - 2e-3), `n=${n} seed=${seed}: bound ${got} too loose for ${want}`);
      }),
      { numRuns: 40, seed: 11 },
    );
  });

  it('property: still a lower bound after a single cold iteration (the estimate is then too high)', () => {
    let uncertifiedWrong = 0;
    fc.assert(
      fc.property(sizeAndSeed, ({ n, seed }) => {
        const l = factorOf(randomSpd(n, seed, 0.5), n);
        const want = refMinEigOfFactor(l, n);
        const got = certifiedMinEigenvalue(l, n, new Float64Array(2 * n), new Float64Array(n * n), 1e-3, 1);
        assert.ok(got <= want, `n=${n} seed=${seed}: bound ${got} above lambda_min ${want}`);
        assert.ok(got >= 0);
        // the uncertified candidate (1 - 1e-3) / mu after the same single step
        const mu = inverseSpectralNorm(l, n, new Float64Array(2 * n), 1, 0);
        if ((1 - 1e-3) / mu > want) uncertifiedWrong++;
      }),
      { numRuns: 40, seed: 12 },
    );
    // in some of these cases the plain estimate is above lambda_min, or this test tests nothing
    assert.ok(uncertifiedWrong > 0, 'no case where the uncertified estimate was wrong');
  });

  it('nearly equal smallest eigenvalues (ratio 0.989, n = 30) with a 3-step budget: below lambda_min', () => {
    const n = 30;
    const l = factorOf(randomSpd(n, 806906, 0.5), n);
    const want = refMinEigOfFactor(l, n);
    const got = certifiedMinEigenvalue(l, n, new Float64Array(2 * n), new Float64Array(n * n), 1e-3, 3);
    assert.ok(got <= want && got > 0, `bound ${got}, lambda_min ${want}`);
  });

  it('a start vector on the wrong eigenvector: no false bound (0 or below lambda_min)', () => {
    // A = diag(1e-6, 1, 1, 1); the warm start e_2 is an exact eigenvector of eigenvalue 1, so the
    // iteration stops at once with estimate 1, a million times too high.
    const n = 4;
    const a = new Float64Array(n * n);
    a[0] = 1e-6;
    for (let i = 1; i < n; i++) a[i * n + i] = 1;
    const l = factorOf(a, n);
    const work = new Float64Array(2 * n);
    work[1] = 1;
    const got = certifiedMinEigenvalue(l, n, work, new Float64Array(n * n));
    assert.ok(got <= 1e-6, `bound ${got} above lambda_min 1e-6`);
  });

  it('property (gram): a lower bound on lambda_min of the exact sum lambda I + sum x x^T, steered by its factor', () => {
    fc.assert(
      fc.property(sizeAndSeed, fc.integer({ min: 1, max: 3 }), ({ n, seed }, steps) => {
        // V = I + sum of m = 2n outer products, summed in floating point as a policy does
        const m = 2 * n;
        const xs = new Float64Array(m * n);
        createRng(seed, 'gram').fillNormal(xs);
        const a = new Float64Array(n * n);
        for (let i = 0; i < n; i++) a[i * n + i] = 1;
        for (let t = 0; t < m; t++)
          for (let i = 0; i < n; i++)
            for (let j = 0; j <= i; j++) a[i * n + j] = a[i * n + j]! + xs[t * n + i]! * xs[t * n + j]!;
        for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) a[j * n + i] = a[i * n + j]!;
        const want = Math.min(
          ...new EigenvalueDecomposition(toMatrix(a, n), { assumeSymmetric: true }).realEigenvalues,
        );
        const l = factorOf(a, n);
        const gram = { a, terms: m };
        // few steps: the estimate may be too high, the check must catch it
        const rough = certifiedMinEigenvalue(
          l,
          n,
          new Float64Array(2 * n),
          new Float64Array(n * n),
          1e-3,
          steps,
          gram,
        );
        assert.ok(rough <= want, `n=${n} seed=${seed}: bound ${rough} above lambda_min ${want}`);
        const got = certifiedMinEigenvalue(
          l,
          n,
          new Float64Array(2 * n),
          new Float64Array(n * n),
          1e-3,
          5000,
          gram,
        );
        assert.ok(got <= want, `n=${n} seed=${seed}: bound ${got} above lambda_min ${want}`);
        assert.ok(got >= want * (1 - 2e-3), `n=${n} seed=${seed}: bound ${got} too loose for ${want}`);
        // the gram path reads the sum, not the factor: a sum with a smaller eigenvalue lowers the bound
        const smaller = Float64Array.from(a);
        for (let i = 0; i < n; i++) smaller[i * n + i] = smaller[i * n + i]! - 0.5 * want;
        const low = certifiedMinEigenvalue(
          l,
          n,
          new Float64Array(2 * n),
          new Float64Array(n * n),
          1e-3,
          5000,
          {
            a: smaller,
            terms: m,
          },
        );
        assert.ok(
          low <= 0.5 * want * (1 + 1e-9),
          `n=${n}: bound ${low} ignores the sum (lambda_min ${0.5 * want})`,
        );
      }),
      { numRuns: 40, seed: 13 },
    );
  });

  it('diag(4, 1): about 0.999, and n = 0 gives 0', () => {
    const got = certifiedMinEigenvalue(
      Float64Array.of(2, 0, 0, 1),
      2,
      new Float64Array(4),
      new Float64Array(4),
    );
    assert.ok(got <= 1 && got >= 0.998, `got ${got}`);
    assert.equal(certifiedMinEigenvalue(new Float64Array(0), 0, new Float64Array(0), new Float64Array(0)), 0);
  });
});
