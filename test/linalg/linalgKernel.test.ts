// The WebAssembly SIMD kernels (src/linalg/kernels.wat) must give the JavaScript kernels' results
// bit for bit: each is run on arrays in the kernels' memory and the JavaScript kernel on plain
// copies, and every entry is compared with Object.is, for every n in 1..23 (all remainders of the
// 2- and 4-blocks) and a few larger n, on random factors grown by random rank-one updates, with and
// without aliasing. RidgeFactor with and without the kernels must agree the same way, and the
// arena must hand its memory back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  backSolveTransposed,
  backSolveTransposedPair,
  cholesky,
  cholUpdate,
  forwardSolve,
  kernelArenaFreeBytes,
  kernelArrays,
  linalgKernel,
  setLinalgKernel,
  withKernelArenaScope,
} from '../../src/linalg/index.js';
import { RidgeFactor } from '../../src/policies/RidgeFactor.js';
import { createRng } from '../../src/random/index.js';
import { randomSpd } from './spd.js';

const SIZES = [...Array.from({ length: 23 }, (_, i) => i + 1), 31, 50, 64];

function same(a: Float64Array, b: Float64Array, what: string): void {
  assert.equal(a.length, b.length);
  const bad = a.findIndex((v, i) => !Object.is(v, b[i]));
  assert.equal(bad, -1, `${what}: first differing entry`);
}

describe('WebAssembly linalg kernels', () => {
  const k = linalgKernel();

  it('are available in Node', () => {
    assert.notEqual(k, null);
  });

  it('match the JavaScript kernels bit for bit on random inputs', () => {
    const kk = k!;
    for (const n of SIZES) {
      const rng = createRng(n, 'kernel-test');
      const [l, x, w, b, o1, o2, y2] = kernelArrays([n * n, n, n, n, n, n, n])!;
      const lj = new Float64Array(n * n);
      assert.ok(cholesky(randomSpd(n, n), n, lj), 'random SPD factorises');
      l!.set(lj);
      const wj = new Float64Array(n);
      const oj1 = new Float64Array(n);
      const oj2 = new Float64Array(n);
      for (let t = 0; t < 12; t++) {
        rng.fillNormal(x!);
        const xj = Float64Array.from(x!);
        kk.cholUpdate(l!.byteOffset, n, x!.byteOffset, w!.byteOffset);
        cholUpdate(lj, n, xj, wj);
        same(l!, lj, `cholUpdate n=${n} t=${t}`);
        // x already in the work array (the kernel then skips its copy)
        w!.set(x!);
        kk.cholUpdate(l!.byteOffset, n, w!.byteOffset, w!.byteOffset);
        cholUpdate(lj, n, xj, wj);
        same(l!, lj, `cholUpdate in place n=${n} t=${t}`);
        rng.fillNormal(b!);
        rng.fillNormal(y2!);
        const bj = Float64Array.from(b!);
        const y2j = Float64Array.from(y2!);
        kk.forwardSolve(l!.byteOffset, n, b!.byteOffset, o1!.byteOffset);
        forwardSolve(lj, n, bj, oj1);
        same(o1!, oj1, `forwardSolve n=${n}`);
        kk.backSolveTransposed(l!.byteOffset, n, b!.byteOffset, o1!.byteOffset);
        backSolveTransposed(lj, n, bj, oj1);
        same(o1!, oj1, `backSolveTransposed n=${n}`);
        kk.backSolveTransposedPair(
          l!.byteOffset,
          n,
          b!.byteOffset,
          o1!.byteOffset,
          y2!.byteOffset,
          o2!.byteOffset,
        );
        backSolveTransposedPair(lj, n, bj, oj1, y2j, oj2);
        same(o1!, oj1, `backSolveTransposedPair (1) n=${n}`);
        same(o2!, oj2, `backSolveTransposedPair (2) n=${n}`);
        // in place: out = b
        o1!.set(b!);
        oj1.set(bj);
        kk.forwardSolve(l!.byteOffset, n, o1!.byteOffset, o1!.byteOffset);
        forwardSolve(lj, n, oj1, oj1);
        same(o1!, oj1, `forwardSolve in place n=${n}`);
        kk.backSolveTransposedPair(
          l!.byteOffset,
          n,
          o1!.byteOffset,
          o1!.byteOffset,
          y2!.byteOffset,
          y2!.byteOffset,
        );
        backSolveTransposedPair(lj, n, oj1, oj1, y2j, y2j);
        same(o1!, oj1, `backSolveTransposedPair in place (1) n=${n}`);
        same(y2!, y2j, `backSolveTransposedPair in place (2) n=${n}`);
      }
      // the JavaScript kernels read arrays in the kernels' memory like any other
      same(l!, lj, `factor n=${n}`);
    }
  });

  it('RidgeFactor gives the same factor and solves with and without the kernels', () => {
    for (const n of [1, 2, 5, 20, 21]) {
      const withK = new RidgeFactor(n, 0.7);
      const was = setLinalgKernel(false);
      let plain: RidgeFactor;
      try {
        plain = new RidgeFactor(n, 0.7);
      } finally {
        setLinalgKernel(was);
      }
      assert.equal(withK.l.buffer, k!.buffer, 'the factor lives in the kernel memory');
      assert.notEqual(plain.l.buffer, k!.buffer);
      const rng = createRng(n, 'factor');
      const [vb, vo, vz, vp] = withK.vectors(4) as [Float64Array, Float64Array, Float64Array, Float64Array];
      assert.equal(vb.buffer, k!.buffer);
      const x = new Float64Array(n);
      const pb = new Float64Array(n);
      const po = new Float64Array(n);
      const pz = new Float64Array(n);
      const pp = new Float64Array(n);
      for (let t = 0; t < 30; t++) {
        rng.fillNormal(x);
        withK.add(x);
        plain.add(x);
        same(withK.l, plain.l, `add n=${n} t=${t}`);
        rng.fillNormal(pb);
        rng.fillNormal(pz);
        vb.set(pb);
        vz.set(pz);
        // kernel memory vectors (no copies) and plain vectors (copied through the scratch)
        withK.solveAndPerturb(vb, vo, vz, vp);
        const qo = new Float64Array(n);
        const qp = new Float64Array(n);
        withK.solveAndPerturb(pb, qo, pz, qp);
        plain.solveAndPerturb(pb, po, pz, pp);
        same(vo, po, 'solveAndPerturb theta');
        same(vp, pp, 'solveAndPerturb perturbation');
        same(qo, po, 'solveAndPerturb theta (copied)');
        same(qp, pp, 'solveAndPerturb perturbation (copied)');
        withK.solve(vb, vo);
        plain.solve(pb, po);
        same(vo, po, 'solve');
        withK.solve(pb, qo);
        same(qo, po, 'solve (copied)');
        withK.perturbation(vz, vp);
        plain.perturbation(pz, pp);
        same(vp, pp, 'perturbation');
        withK.perturbation(pz, qp);
        same(qp, pp, 'perturbation (copied)');
      }
      assert.equal(withK.logDet(), plain.logDet());
      assert.equal(withK.trace(), plain.trace());
      assert.deepEqual(withK.toJSON(), plain.toJSON());
    }
  });

  it('hands out aligned, zeroed, disjoint arrays and refuses what does not fit', () => {
    const free0 = kernelArenaFreeBytes()!;
    const [a, b] = kernelArrays([3, 5])!;
    assert.equal(a!.byteOffset % 16, 0);
    assert.equal(b!.byteOffset % 16, 0);
    assert.ok(b!.byteOffset >= a!.byteOffset + 24);
    assert.ok([...a!, ...b!].every((v) => v === 0));
    assert.equal(kernelArenaFreeBytes(), free0 - 32 - 48);
    assert.equal(kernelArrays([k!.buffer.byteLength]), null, 'larger than the memory: plain arrays instead');
  });

  it('returns memory once every array of a block is collected', async () => {
    // a forced collection (the flag, then the gc function from a fresh context), so the check does
    // not wait on the collector's own timing
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const settle = async () => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await settle(); // the earlier tests' garbage first
    const free0 = kernelArenaFreeBytes()!;
    let held: Float64Array[] | null = kernelArrays([1024, 1024]);
    assert.notEqual(held, null);
    assert.equal(kernelArenaFreeBytes(), free0 - 2 * 8192);
    let keepOne: Float64Array | null = held![1]!;
    held = null;
    await settle();
    assert.equal(kernelArenaFreeBytes(), free0 - 2 * 8192, 'one array of the block is still reachable');
    assert.equal(keepOne.length, 1024);
    keepOne = null;
    await settle();
    assert.equal(kernelArenaFreeBytes(), free0, 'the whole block came back');
    // churn far beyond 16 MiB: every block comes back
    for (let i = 0; i < 100; i++) {
      assert.notEqual(kernelArrays([64 * 1024]), null, `block ${i}`);
      if (i % 10 === 9) {
        gc();
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  });

  it('returns the blocks of a scope at its end, also when it throws, without the collector', () => {
    // synchronous throughout: no finalisation callback can run, so only the scope can return memory
    const free0 = kernelArenaFreeBytes()!;
    let inner = 0;
    const got = withKernelArenaScope(() => {
      assert.notEqual(kernelArrays([1000]), null);
      withKernelArenaScope(() => {
        assert.notEqual(kernelArrays([500, 500]), null);
        inner = kernelArenaFreeBytes()!;
      });
      assert.equal(kernelArenaFreeBytes(), inner + 2 * 4000, 'the nested scope returned its own block');
      return 7;
    });
    assert.equal(got, 7);
    assert.equal(kernelArenaFreeBytes(), free0);
    assert.throws(
      () =>
        withKernelArenaScope(() => {
          kernelArrays([2048]);
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.equal(kernelArenaFreeBytes(), free0);
    // far more than the 16 MiB in scopes, one after another: every factor gets kernel memory
    for (let i = 0; i < 100; i++) {
      withKernelArenaScope(() => assert.notEqual(kernelArrays([64 * 1024]), null, `scope ${i}`));
    }
    assert.equal(kernelArenaFreeBytes(), free0);
  });
});
