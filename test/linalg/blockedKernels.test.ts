// The blocked kernels (issue 29) must give bit-identical results to the one-row/one-column loops
// they replaced: each is compared, with Object.is on every entry, to a plain reference loop written
// here, for every size 1..13 (all remainders of the 2- and 4-blocks) and with aliasing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  backSolveTransposed,
  backSolveTransposedPair,
  cholesky,
  cholUpdate,
  forwardSolve,
  invQuadForm,
} from '../../src/linalg/index.js';
import { randomSpd, randomVector } from './spd.js';

function refForward(l: Float64Array, n: number, b: Float64Array, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * n + k]! * out[k]!;
    out[i] = s / l[i * n + i]!;
  }
}

function refBackT(l: Float64Array, n: number, y: Float64Array, out: Float64Array): void {
  if (out !== y) for (let i = 0; i < n; i++) out[i] = y[i]!;
  for (let i = n - 1; i >= 0; i--) {
    const zi = out[i]! / l[i * n + i]!;
    out[i] = zi;
    for (let k = 0; k < i; k++) out[k] = out[k]! - l[i * n + k]! * zi;
  }
}

function refUpdate(l: Float64Array, n: number, x: Float64Array): void {
  const w = Float64Array.from(x);
  for (let k = 0; k < n; k++) {
    const kk = k * n + k;
    const lkk = l[kk]!;
    const wk = w[k]!;
    const r = Math.sqrt(lkk * lkk + wk * wk);
    const c = r / lkk;
    const s = wk / lkk;
    l[kk] = r;
    const ic = 1 / c;
    const sc = s / c;
    for (let i = k + 1; i < n; i++) {
      const p = i * n + k;
      const lik = l[p]!;
      const wi = w[i]!;
      l[p] = ic * lik + sc * wi;
      w[i] = ic * wi - sc * lik;
    }
  }
}

function factorOf(n: number, seed: number): Float64Array {
  const l = new Float64Array(n * n);
  assert.ok(cholesky(randomSpd(n, seed), n, l));
  return l;
}

function assertSame(actual: Float64Array, expected: Float64Array, what: string): void {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(
      Object.is(actual[i], expected[i]),
      `${what}: entry ${i} is ${actual[i]}, expected ${expected[i]}`,
    );
  }
}

describe('blocked kernels are bit-identical to the plain loops', () => {
  for (let n = 1; n <= 13; n++) {
    it(`n = ${n}: forwardSolve, backSolveTransposed, backSolveTransposedPair, invQuadForm`, () => {
      for (let seed = 1; seed <= 3; seed++) {
        const l = factorOf(n, 100 * n + seed);
        const b = randomVector(n, seed, 'b');
        const z = randomVector(n, seed, 'z');
        const want = new Float64Array(n);
        const got = new Float64Array(n);
        refForward(l, n, b, want);
        forwardSolve(l, n, b, got);
        assertSame(got, want, 'forwardSolve');
        const alias = Float64Array.from(b);
        forwardSolve(l, n, alias, alias);
        assertSame(alias, want, 'forwardSolve in place');
        let q = 0;
        for (let i = 0; i < n; i++) q += want[i]! * want[i]!;
        assert.ok(Object.is(invQuadForm(l, n, b, new Float64Array(n)), q), 'invQuadForm');

        refBackT(l, n, b, want);
        backSolveTransposed(l, n, b, got);
        assertSame(got, want, 'backSolveTransposed');
        const alias2 = Float64Array.from(b);
        backSolveTransposed(l, n, alias2, alias2);
        assertSame(alias2, want, 'backSolveTransposed in place');

        const want2 = new Float64Array(n);
        refBackT(l, n, z, want2);
        const o1 = Float64Array.from(b);
        const o2 = new Float64Array(n);
        backSolveTransposedPair(l, n, o1, o1, z, o2);
        assertSame(o1, want, 'backSolveTransposedPair first (in place)');
        assertSame(o2, want2, 'backSolveTransposedPair second');
      }
    });

    it(`n = ${n}: cholUpdate over a sequence of updates`, () => {
      const want = factorOf(n, 7 * n);
      const got = Float64Array.from(want);
      const work = new Float64Array(n);
      for (let t = 0; t < 20; t++) {
        const x = randomVector(n, t + 1, 'x');
        refUpdate(want, n, x);
        cholUpdate(got, n, x, work);
        assertSame(got, want, `cholUpdate step ${t}`);
      }
    });
  }

  it('example of backSolveTransposedPair (docs)', () => {
    const a = new Float64Array(2);
    const b = new Float64Array(2);
    backSolveTransposedPair(
      Float64Array.of(2, 0, 1, 2),
      2,
      Float64Array.of(4, 4),
      a,
      Float64Array.of(2, 2),
      b,
    );
    assert.deepEqual([...a], [1, 2]);
    assert.deepEqual([...b], [0.5, 1]);
  });
});
