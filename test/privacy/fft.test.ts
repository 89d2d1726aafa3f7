import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Fft } from '../../src/privacy/fft.js';

test('Fft equals the naive DFT and inverts itself (sizes 2 to 1024)', () => {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  for (const n of [2, 4, 8, 64, 1024]) {
    const x = Float64Array.from({ length: 2 * n }, rand);
    const y = Float64Array.from(x);
    new Fft(n).transform(y);
    for (const k of [0, 1, n - 1, n >> 1]) {
      let re = 0;
      let im = 0;
      for (let j = 0; j < n; j++) {
        const a = (-2 * Math.PI * j * k) / n;
        re += x[2 * j]! * Math.cos(a) - x[2 * j + 1]! * Math.sin(a);
        im += x[2 * j]! * Math.sin(a) + x[2 * j + 1]! * Math.cos(a);
      }
      assert.ok(
        Math.abs(y[2 * k]! - re) < 1e-12 * n && Math.abs(y[2 * k + 1]! - im) < 1e-12 * n,
        `n=${n} k=${k}`,
      );
    }
    new Fft(n).transform(y, true);
    for (let i = 0; i < 2 * n; i++) assert.ok(Math.abs(y[i]! - x[i]!) < 1e-14 * n, `round trip n=${n}`);
  }
  assert.throws(() => new Fft(12), /size must be a power of two >= 2. Got 12/);
});
