// Test helpers: random SPD matrices and plain reference code (not a test file itself).
import fc from 'fast-check';
import { Matrix } from 'ml-matrix';
import { createRng } from '../../src/random/index.js';

/** A = B B^T + ridge I with B having N(0, 1) entries; row-major n*n. */
export function randomSpd(n: number, seed: number, ridge = 0.1): Float64Array {
  const r = createRng(seed, 'spd');
  const b = new Float64Array(n * n);
  r.fillNormal(b);
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += b[i * n + k]! * b[j * n + k]!;
      if (i === j) s += ridge;
      a[i * n + j] = s;
      a[j * n + i] = s;
    }
  return a;
}

export function randomVector(n: number, seed: number, stream = 'vec'): Float64Array {
  const v = new Float64Array(n);
  createRng(seed, stream).fillNormal(v);
  return v;
}

/** fast-check arbitrary: (n in 1..40, seed) pairs; n shrinks towards 1. */
export const sizeAndSeed = fc.record({
  n: fc.integer({ min: 1, max: 40 }),
  seed: fc.nat({ max: 1_000_000 }),
});

export function toMatrix(a: Float64Array, n: number): Matrix {
  const rows: number[][] = [];
  for (let i = 0; i < n; i++) rows.push(Array.from(a.subarray(i * n, i * n + n)));
  return new Matrix(rows);
}

/** max |a_i - b_i| / (1 + max |b_i|) over the first len entries. */
export function relDiff(a: ArrayLike<number>, b: ArrayLike<number>, len: number): number {
  let m = 0;
  let s = 0;
  for (let i = 0; i < len; i++) {
    m = Math.max(m, Math.abs(a[i]! - b[i]!));
    s = Math.max(s, Math.abs(b[i]!));
  }
  return m / (1 + s);
}

/** L L^T (row-major). */
export function multiplyLLt(l: Float64Array, n: number): Float64Array {
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += l[i * n + k]! * l[j * n + k]!;
      a[i * n + j] = s;
    }
  return a;
}

/** A x (row-major). */
export function matVec(a: Float64Array, n: number, x: Float64Array): Float64Array {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += a[i * n + k]! * x[k]!;
    y[i] = s;
  }
  return y;
}
