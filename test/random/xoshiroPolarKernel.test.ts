// The WebAssembly kernel of Xoshiro256.fillNormal (src/random/xoshiroPolar.wat) must give the
// JavaScript loop's normals bit for bit and leave the generator in the same state: both paths are
// run side by side on twin generators (Object.is on every value, saveState compared), over odd and
// even lengths, offsets, a cached spare, calls longer than one kernel call holds, and interleaved
// uniform/normal draws.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createRng } from '../../src/random/index.js';
import { polarKernel, setPolarKernel } from '../../src/random/xoshiroPolarKernel.js';

function withKernel<T>(on: boolean, f: () => T): T {
  const was = setPolarKernel(on);
  try {
    return f();
  } finally {
    setPolarKernel(was);
  }
}

describe('xoshiroPolar WebAssembly kernel', () => {
  after(() => setPolarKernel(true));

  it('is available in Node', () => {
    assert.notEqual(polarKernel(), null);
    assert.equal(withKernel(false, polarKernel), null);
  });

  it('fills the same normals as the JavaScript loop and leaves the same state', () => {
    const sizes = [1, 2, 3, 7, 20, 21, 50, 6001];
    for (const seed of [1, 2, 99]) {
      const a = createRng(seed, 'normals');
      const b = createRng(seed, 'normals');
      for (let round = 0; round < 40; round++) {
        const n = sizes[round % sizes.length]!;
        const start = round % 3;
        const x = new Float64Array(n + 3);
        const y = new Float64Array(n + 3);
        withKernel(true, () => a.fillNormal(x, start, start + n));
        withKernel(false, () => b.fillNormal(y, start, start + n));
        const bad = x.findIndex((v, i) => !Object.is(v, y[i]));
        assert.equal(bad, -1, `seed ${seed} round ${round}: first differing entry`);
        // odd lengths leave a spare; the next draws must agree too
        if (round % 4 === 1) {
          assert.ok(
            Object.is(
              withKernel(true, () => a.normal()),
              withKernel(false, () => b.normal()),
            ),
          );
          assert.equal(a.uniform(), b.uniform());
        }
        assert.deepEqual(a.saveState(), b.saveState());
      }
    }
  });

  it('normal() draws the same stream with and without the kernel', () => {
    const viaKernel = withKernel(true, () => {
      const r = createRng(1, 'policy');
      return Array.from({ length: 5 }, () => r.normal());
    });
    const viaJs = withKernel(false, () => {
      const r = createRng(1, 'policy');
      return Array.from({ length: 5 }, () => r.normal());
    });
    assert.deepEqual(viaKernel, viaJs);
  });
});
