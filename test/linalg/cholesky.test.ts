import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CholeskyDecomposition } from 'ml-matrix';
import { cholesky } from '../../src/linalg/index.js';
import { multiplyLLt, randomSpd, relDiff, sizeAndSeed, toMatrix } from './spd.js';

describe('cholesky', () => {
  it('factors [[4,2],[2,5]] as [[2,0],[1,2]]', () => {
    const l = new Float64Array(4).fill(7);
    assert.equal(cholesky(Float64Array.of(4, 2, 2, 5), 2, l), true);
    assert.deepEqual([...l], [2, 0, 1, 2]);
  });

  it('property: L is lower triangular with positive diagonal, L L^T = A, and matches ml-matrix', () => {
    fc.assert(
      fc.property(sizeAndSeed, ({ n, seed }) => {
        const a = randomSpd(n, seed);
        const l = new Float64Array(n * n).fill(Number.NaN);
        assert.equal(cholesky(a, n, l), true);
        for (let i = 0; i < n; i++) {
          assert.ok(l[i * n + i]! > 0);
          for (let j = i + 1; j < n; j++) assert.equal(l[i * n + j], 0);
        }
        const e = relDiff(multiplyLLt(l, n), a, n * n);
        assert.ok(e < 1e-12, `n=${n} seed=${seed}: |LL^T - A| rel ${e}`);
        const ref = new CholeskyDecomposition(toMatrix(a, n)).lowerTriangularMatrix.to1DArray();
        const e2 = relDiff(l, ref, n * n);
        assert.ok(e2 < 1e-10, `n=${n} seed=${seed}: vs ml-matrix rel ${e2}`);
      }),
      { numRuns: 60, seed: 1 },
    );
  });

  it('works in place (l === a) and reads only the lower triangle', () => {
    const a = randomSpd(6, 3);
    const expected = new Float64Array(36);
    cholesky(a, 6, expected);
    const b = Float64Array.from(a);
    for (let i = 0; i < 6; i++) for (let j = i + 1; j < 6; j++) b[i * 6 + j] = 1e9; // garbage above
    assert.equal(cholesky(b, 6, b), true);
    assert.deepEqual(b, expected);
  });

  it('returns false (never throws) for indefinite, singular and non-finite input', () => {
    const l = new Float64Array(4);
    assert.equal(cholesky(Float64Array.of(1, 2, 2, 1), 2, l), false); // eigenvalues 3, -1
    assert.equal(cholesky(Float64Array.of(1, 1, 1, 1), 2, l), false); // singular
    assert.equal(cholesky(Float64Array.of(0, 0, 0, 1), 2, l), false);
    assert.equal(cholesky(Float64Array.of(Number.NaN, 0, 0, 1), 2, l), false);
    assert.equal(cholesky(Float64Array.of(1, 0, 0, Number.POSITIVE_INFINITY), 2, l), false);
    assert.equal(cholesky(new Float64Array(0), 0, l), true);
  });
});
