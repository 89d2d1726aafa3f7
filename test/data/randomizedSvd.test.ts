import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Matrix, SingularValueDecomposition } from 'ml-matrix';
import { buildCsr } from '../../src/data/CsrMatrix.js';
import { randomizedSvd } from '../../src/data/randomizedSvd.js';
import { createRng } from '../../src/random/index.js';

/** A random sparse m x n matrix with a planted low-rank part plus noise, density `density`. */
function makeMatrix(m: number, n: number, density: number, seed: number) {
  const rng = createRng(seed, 'matrix');
  const rows: number[] = [];
  const cols: number[] = [];
  const vals: number[] = [];
  const a = new Float64Array(m * 3);
  const b = new Float64Array(n * 3);
  rng.fillNormal(a);
  rng.fillNormal(b);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      if (rng.uniform() >= density) continue;
      let v = 0.3 * rng.normal();
      for (let c = 0; c < 3; c++) v += a[i * 3 + c]! * b[j * 3 + c]!;
      rows.push(i);
      cols.push(j);
      vals.push(Math.fround(v));
    }
  }
  const csr = buildCsr(m, n, Int32Array.from(rows), Int32Array.from(cols), Float32Array.from(vals));
  const dense = Matrix.zeros(m, n);
  for (let t = 0; t < rows.length; t++) dense.set(rows[t]!, cols[t]!, vals[t]!);
  return { csr, dense };
}

function reconstructionError(
  dense: Matrix,
  u: Float64Array,
  s: Float64Array,
  v: Float64Array,
  k: number,
): number {
  let err = 0;
  for (let i = 0; i < dense.rows; i++) {
    for (let j = 0; j < dense.columns; j++) {
      let x = 0;
      for (let c = 0; c < k; c++) x += u[i * k + c]! * s[c]! * v[j * k + c]!;
      err += (dense.get(i, j) - x) ** 2;
    }
  }
  return err;
}

function maxOrthogonalityDefect(w: Float64Array, rows: number, k: number): number {
  let worst = 0;
  for (let a = 0; a < k; a++) {
    for (let b = 0; b < k; b++) {
      let d = 0;
      for (let i = 0; i < rows; i++) d += w[i * k + a]! * w[i * k + b]!;
      worst = Math.max(worst, Math.abs(d - (a === b ? 1 : 0)));
    }
  }
  return worst;
}

describe('randomizedSvd', () => {
  for (const [m, n, k, seed] of [
    [60, 40, 5, 1],
    [35, 80, 8, 2],
    [50, 50, 3, 3],
  ] as const) {
    it(`matches the best rank-${k} approximation of a ${m}x${n} sparse matrix (dense SVD reference)`, () => {
      const { csr, dense } = makeMatrix(m, n, 0.3, seed);
      const ref = new SingularValueDecomposition(dense);
      const sigma = ref.diagonal;
      let best = 0;
      for (let c = k; c < sigma.length; c++) best += sigma[c]! ** 2;
      const svd = randomizedSvd(csr, { rank: k, powerIterations: 6 }, createRng(seed, 'svd'));
      for (let c = 0; c < k; c++) {
        const rel = Math.abs(svd.s[c]! - sigma[c]!) / sigma[0]!;
        assert.ok(rel < 1e-3, `singular value ${c}: expected ${sigma[c]}, got ${svd.s[c]}, rel ${rel}`);
      }
      const err = reconstructionError(dense, svd.u, svd.s, svd.v, k);
      assert.ok(err <= best * 1.01 + 1e-9, `reconstruction error ${err} vs best rank-${k} ${best}`);
      assert.ok(maxOrthogonalityDefect(svd.u, m, k) < 1e-9, 'U has orthonormal columns');
      assert.ok(maxOrthogonalityDefect(svd.v, n, k) < 1e-9, 'V has orthonormal columns');
    });
  }

  it('recovers an exactly low-rank matrix whose rank is below the sketch width', () => {
    const m = 30;
    const n = 25;
    const rows: number[] = [];
    const cols: number[] = [];
    const vals: number[] = [];
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        rows.push(i);
        cols.push(j);
        vals.push((i + 1) * (j % 5) - 2 * (i % 3));
      }
    }
    const csr = buildCsr(m, n, Int32Array.from(rows), Int32Array.from(cols), Float32Array.from(vals));
    const dense = Matrix.zeros(m, n);
    for (let t = 0; t < rows.length; t++) dense.set(rows[t]!, cols[t]!, vals[t]!);
    const svd = randomizedSvd(csr, { rank: 4 }, createRng(4, 'svd'));
    const total = dense.norm('frobenius') ** 2;
    const err = reconstructionError(dense, svd.u, svd.s, svd.v, 4);
    assert.ok(err < 1e-10 * total, `rank-2 matrix reconstructed exactly, error ${err}`);
    assert.ok(maxOrthogonalityDefect(svd.u, m, 4) < 1e-9, 'U orthonormal even past the rank');
  });

  it('is deterministic for a seed and refuses a bad rank', () => {
    const { csr } = makeMatrix(20, 15, 0.5, 9);
    const a = randomizedSvd(csr, { rank: 3 }, createRng(5, 'svd'));
    const b = randomizedSvd(csr, { rank: 3 }, createRng(5, 'svd'));
    assert.deepEqual(Array.from(a.s), Array.from(b.s));
    assert.throws(
      () => randomizedSvd(csr, { rank: 16 }, createRng(5, 'svd')),
      /rank must be an integer in \[1, 15\]/,
    );
    assert.throws(() => randomizedSvd(csr, { rank: 0 }, createRng(5, 'svd')), /Got 0/);
  });
});
