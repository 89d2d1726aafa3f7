import { Matrix, SingularValueDecomposition } from 'ml-matrix';
import type { Rng } from '../random/Rng.js';
import { type CsrMatrix, csrTimesBlock, csrTransposeTimesBlock } from './CsrMatrix.js';
import { orthonormalizeColumns } from './orthonormalizeColumns.js';

/** Options of {@link randomizedSvd}. */
export interface RandomizedSvdOptions {
  /** Target rank k. Required; integer in [1, min(rows, cols)]. */
  readonly rank: number;
  /** Extra sketch columns p (sketch width l = k + p, capped at min(rows, cols)). Default 10; integer >= 0. */
  readonly oversampling?: number;
  /** Subspace (power) iterations q. Default 4; integer >= 0. */
  readonly powerIterations?: number;
  /** Called after each pass over the matrix with (passes done, total passes). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A truncated SVD A ~ U diag(s) V^T. */
export interface TruncatedSvd {
  readonly rank: number;
  /** Left singular vectors, rows x rank, row-major (row i = the factor of row i of A). */
  readonly u: Float64Array;
  /** Singular values, decreasing. */
  readonly s: Float64Array;
  /** Right singular vectors, cols x rank, row-major. */
  readonly v: Float64Array;
}

/**
 * Truncated SVD of a sparse matrix by the randomised range finder with subspace iteration
 * (Halko, Martinsson & Tropp 2011, Algorithms 4.4 and 5.1): Y = A Omega with a Gaussian sketch
 * Omega (cols x l), q rounds of re-orthonormalised power iteration, then the exact SVD of the small
 * l x l factor (ml-matrix) of B = Q^T A, obtained from a QR of A^T Q so that the spectrum is not
 * squared. Only the sparse matrix and O((rows + cols) l) dense values are held.
 *
 * Cost: 2(q + 1) passes over the nnz entries, O(nnz l (q + 1) + (rows + cols) l^2 (q + 1)) flops.
 * ml-25m at rank 50: about 20M nnz x 60 x 10 multiply-adds.
 * @example
 * const svd = randomizedSvd(csr, { rank: 50 }, createRng(1, 'svd'));
 * svd.s.length; // returns 50
 */
export function randomizedSvd(a: CsrMatrix, options: RandomizedSvdOptions, rng: Rng): TruncatedSvd {
  const { rows: m, cols: n } = a;
  const k = options.rank;
  const p = options.oversampling ?? 10;
  const q = options.powerIterations ?? 4;
  const minDim = Math.min(m, n);
  if (!Number.isInteger(k) || k < 1 || k > minDim) {
    throw new Error(
      `randomizedSvd: rank must be an integer in [1, ${minDim}] (min of the matrix dimensions). Got ${k}.`,
    );
  }
  if (!Number.isInteger(p) || p < 0)
    throw new Error(`randomizedSvd: oversampling must be an integer >= 0. Got ${p}.`);
  if (!Number.isInteger(q) || q < 0)
    throw new Error(`randomizedSvd: powerIterations must be an integer >= 0. Got ${q}.`);
  const l = Math.min(k + p, minDim);
  const totalPasses = 2 * (q + 1);
  let passes = 0;
  const tick = (): void => {
    passes++;
    options.onProgress?.(passes, totalPasses);
  };

  const acc = new Float64Array(l);
  const xr = new Float64Array(n * l); // row-major n x l (input of A x)
  const y = new Float64Array(m * l); // column-major m x l
  const zr = new Float64Array(n * l); // row-major n x l (output of A^T y)
  const zc = new Float64Array(n * l); // column-major n x l

  rng.fillNormal(xr);
  csrTimesBlock(a, xr, l, y, acc);
  tick();
  orthonormalizeColumns(y, m, l, rng);
  for (let it = 0; it < q; it++) {
    csrTransposeTimesBlock(a, y, l, zr, acc);
    tick();
    transpose(zr, n, l, zc);
    orthonormalizeColumns(zc, n, l, rng);
    transpose(zc, l, n, xr);
    csrTimesBlock(a, xr, l, y, acc);
    tick();
    orthonormalizeColumns(y, m, l, rng);
  }
  // A^T Q = Qz R, so B = Q^T A = R^T Qz^T; the SVD of the small R^T gives the rest.
  csrTransposeTimesBlock(a, y, l, zr, acc);
  tick();
  transpose(zr, n, l, zc);
  const r = new Float64Array(l * l);
  orthonormalizeColumns(zc, n, l, rng, r);
  const rt = new Matrix(l, l);
  for (let i = 0; i < l; i++) for (let j = 0; j < l; j++) rt.set(j, i, r[i * l + j]!);
  const small = new SingularValueDecomposition(rt, {
    computeLeftSingularVectors: true,
    computeRightSingularVectors: true,
  });
  const ur = small.leftSingularVectors;
  const vr = small.rightSingularVectors;
  const sv = small.diagonal;
  // ml-matrix returns singular values in decreasing order
  const u = new Float64Array(m * k);
  const v = new Float64Array(n * k);
  const s = new Float64Array(k);
  for (let c = 0; c < k; c++) s[c] = sv[c] ?? 0;
  const urk = new Float64Array(l * k);
  const vrk = new Float64Array(l * k);
  for (let i = 0; i < l; i++) {
    for (let c = 0; c < k; c++) {
      urk[i * k + c] = ur.get(i, c);
      vrk[i * k + c] = vr.get(i, c);
    }
  }
  multiplyColumnMajorBy(y, m, l, urk, k, u);
  multiplyColumnMajorBy(zc, n, l, vrk, k, v);
  return { rank: k, u, s, v };
}

/** out (cols x rows, row-major) = transpose of src (rows x cols, row-major). */
function transpose(src: Float64Array, rows: number, cols: number, out: Float64Array): void {
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    for (let j = 0; j < cols; j++) out[j * rows + i] = src[o + j]!;
  }
}

/** out (n x k, row-major) = Q (n x l, column-major) times W (l x k, row-major). */
function multiplyColumnMajorBy(
  qc: Float64Array,
  n: number,
  l: number,
  w: Float64Array,
  k: number,
  out: Float64Array,
): void {
  out.fill(0);
  for (let j = 0; j < l; j++) {
    const oj = j * n;
    const wj = j * k;
    for (let i = 0; i < n; i++) {
      const qv = qc[oj + i]!;
      if (qv === 0) continue;
      const oi = i * k;
      for (let c = 0; c < k; c++) out[oi + c]! += qv * w[wj + c]!;
    }
  }
}
