import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RngState } from '../../src/random/index.js';
import { createRng, rngFromState, XOSHIRO256_ALGORITHM, Xoshiro256 } from '../../src/random/index.js';

// An independent reference: xoshiro256** written directly from Blackman & Vigna's definition with BigInt.
const M64 = (1n << 64n) - 1n;
const rotl = (x: bigint, k: bigint): bigint => ((x << k) | (x >> (64n - k))) & M64;
function referenceXoshiro(state: bigint[]): () => bigint {
  const s = state.slice();
  return () => {
    const result = (rotl((s[1]! * 5n) & M64, 7n) * 9n) & M64;
    const t = (s[1]! << 17n) & M64;
    s[2] = s[2]! ^ s[0]!;
    s[3] = s[3]! ^ s[1]!;
    s[1] = s[1]! ^ s[2]!;
    s[0] = s[0]! ^ s[3]!;
    s[2] = s[2]! ^ t;
    s[3] = rotl(s[3]!, 45n);
    return result;
  };
}

describe('Xoshiro256 bit stream', () => {
  it('matches a BigInt reference of xoshiro256** (first output 11520 from state 1,2,3,4)', () => {
    const ref = referenceXoshiro([1n, 2n, 3n, 4n]);
    const first = ref();
    assert.equal(first, 11520n);
    const rng = new Xoshiro256([1n, 2n, 3n, 4n]);
    assert.equal(rng.uniform(), Number(first >> 11n) / 2 ** 53);
  });

  it('matches the reference for 20000 outputs from states with all bits in play', () => {
    const words: [bigint, bigint, bigint, bigint] = [
      0xfedcba9876543210n,
      0x8000000000000001n,
      0xffffffffffffffffn,
      0x0123456789abcdefn,
    ];
    const ref = referenceXoshiro(words);
    const rng = new Xoshiro256(words);
    for (let i = 0; i < 20000; i++) {
      const want = Number(ref() >> 11n) / 2 ** 53;
      const got = rng.uniform();
      if (got !== want) assert.fail(`output ${i}: expected ${want}, got ${got}`);
    }
    // integer() uses the high 32 bits of one output
    const x = ref() >> 32n;
    assert.equal(rng.integer(2 ** 32), Number(x));
  });

  it('refuses an all-zero state', () => {
    assert.throws(() => new Xoshiro256([0n, 0n, 0n, 0n]), /must not be all zero/);
  });
});

describe('Rng samplers', () => {
  it('uniform is in [0, 1)', () => {
    const r = createRng(3, 'u');
    for (let i = 0; i < 10000; i++) {
      const u = r.uniform();
      assert.ok(u >= 0 && u < 1, `uniform out of range: ${u}`);
    }
  });

  it('fillNormal gives exactly what successive normal() calls give, for any start/end and spare', () => {
    for (const [skip, start, end] of [
      [0, 0, 10],
      [1, 0, 9],
      [1, 2, 7],
      [0, 3, 3],
      [3, 0, 1],
    ] as const) {
      const a = createRng(11, 'fill');
      const b = createRng(11, 'fill');
      for (let i = 0; i < skip; i++) {
        a.normal();
        b.normal();
      }
      const out = new Float64Array(12).fill(99);
      a.fillNormal(out, start, end);
      for (let i = 0; i < 12; i++) {
        if (i >= start && i < end) assert.equal(out[i], b.normal(), `skip=${skip} index ${i}`);
        else assert.equal(out[i], 99, `untouched outside [${start}, ${end})`);
      }
      assert.deepEqual(a.saveState(), b.saveState());
    }
  });

  it('fillNormal defaults to the whole array', () => {
    const a = createRng(5);
    const b = createRng(5);
    const out = new Float64Array(7);
    a.fillNormal(out);
    for (let i = 0; i < 7; i++) assert.equal(out[i], b.normal());
  });

  it('bernoulli(0) is never true and bernoulli(1) always', () => {
    const r = createRng(8);
    for (let i = 0; i < 1000; i++) {
      assert.equal(r.bernoulli(0), false);
      assert.equal(r.bernoulli(1), true);
    }
  });

  it('integer(n) stays in [0, n) and refuses bad n', () => {
    const r = createRng(9);
    for (const n of [1, 2, 7, 100, 2 ** 31 + 5, 2 ** 32]) {
      for (let i = 0; i < 200; i++) {
        const x = r.integer(n);
        assert.ok(Number.isInteger(x) && x >= 0 && x < n, `integer(${n}) gave ${x}`);
      }
    }
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 32 + 1]) {
      assert.throws(() => r.integer(bad), /n must be an integer in \[1, 2\^32\]/);
    }
  });

  it('sampleWithoutReplacement gives k distinct indices in [0, n) and validates sizes', () => {
    const r = createRng(10);
    const out = new Int32Array(5);
    const scratch = new Int32Array(100);
    for (let t = 0; t < 200; t++) {
      r.sampleWithoutReplacement(100, 5, out, scratch);
      assert.equal(new Set(out).size, 5);
      for (const v of out) assert.ok(v >= 0 && v < 100);
    }
    r.sampleWithoutReplacement(5, 5, out, scratch);
    assert.deepEqual(
      [...out].sort((a, b) => a - b),
      [0, 1, 2, 3, 4],
    );
    assert.throws(() => r.sampleWithoutReplacement(3, 4, out, scratch), /k must be an integer in \[0, n=3\]/);
    assert.throws(
      () => r.sampleWithoutReplacement(200, 2, out, scratch),
      /scratch must have length >= n=200/,
    );
    assert.throws(
      () => r.sampleWithoutReplacement(10, 6, new Int32Array(5), scratch),
      /out must have length/,
    );
  });
});

describe('Rng state', () => {
  it('save/restore continues identically, including a cached spare normal, through JSON', () => {
    const r = createRng(123, 'policy');
    r.uniform();
    r.normal(); // leaves a spare
    const saved = JSON.parse(JSON.stringify(r.saveState())) as RngState;
    assert.equal(saved.algorithm, XOSHIRO256_ALGORITHM);
    assert.equal(typeof saved.spareNormal, 'number');
    const expected = [r.normal(), r.uniform(), r.normal(), r.integer(1000)];
    const copy = rngFromState(saved);
    assert.deepEqual([copy.normal(), copy.uniform(), copy.normal(), copy.integer(1000)], expected);
    r.restoreState(saved);
    assert.deepEqual([r.normal(), r.uniform(), r.normal(), r.integer(1000)], expected);
  });

  it('a state without spare restores without spare', () => {
    const r = createRng(1);
    const s = r.saveState();
    assert.equal(s.spareNormal, null);
    const a = r.normal();
    assert.equal(rngFromState(s).normal(), a);
  });

  it('restoreState refuses foreign or malformed states with a message naming the field', () => {
    const r = createRng(1);
    const good = r.saveState();
    assert.throws(() => r.restoreState({ ...good, algorithm: 'mt19937' }), /algorithm must be/);
    assert.throws(() => r.restoreState({ ...good, words: ['00'] }), /words must be 4 strings/);
    assert.throws(() => r.restoreState({ ...good, words: ['0', '0', '0', 'x'] }), /words must be 4 strings/);
    assert.throws(() => r.restoreState({ ...good, spareNormal: Number.NaN }), /spareNormal must be/);
    const zero = { ...good, words: ['0'.repeat(16), '0'.repeat(16), '0'.repeat(16), '0'.repeat(16)] };
    assert.throws(() => r.restoreState(zero), /must not be all zero/);
    assert.throws(() => r.restoreState(null as unknown as RngState), /state must be an object/);
  });
});

describe('Xoshiro256 normals against the polar method on uniform() (issue 29: the inlined step)', () => {
  it('normal() and fillNormal() give the polar pairs of successive uniform() calls, bit for bit', () => {
    const ref = createRng(42, 'polar-reference');
    const viaNormal = createRng(42, 'polar-reference');
    const viaFill = createRng(42, 'polar-reference');
    const expected: number[] = [];
    while (expected.length < 1001) {
      let u: number;
      let v: number;
      let q: number;
      do {
        u = 2 * ref.uniform() - 1;
        v = 2 * ref.uniform() - 1;
        q = u * u + v * v;
      } while (q >= 1 || q === 0);
      const f = Math.sqrt((-2 * Math.log(q)) / q);
      expected.push(u * f, v * f);
    }
    for (let i = 0; i < 1001; i++) assert.ok(Object.is(viaNormal.normal(), expected[i]), `normal ${i}`);
    const out = new Float64Array(1001);
    viaFill.fillNormal(out, 0, 7); // odd lengths leave a spare for the next call
    viaFill.fillNormal(out, 7, 1001);
    for (let i = 0; i < 1001; i++) assert.ok(Object.is(out[i], expected[i]), `fillNormal ${i}`);
    // the generators continue in step: same state after the same number of uniforms
    viaNormal.normal(); // takes the spare of normal 1001 (index 1001 of the pairs)
    viaFill.normal();
    const next = ref.uniform();
    assert.equal(viaNormal.uniform(), next);
    assert.equal(viaFill.uniform(), next);
  });
});
