import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SecureRng } from '../../src/random/index.js';
import { KS_SQRT_N_CRIT_1E4, ksStatistic, normalCdf } from './goodnessOfFit.js';

// The stream is secret and cannot be seeded, so these tests check properties that hold for every
// stream: range, independence of two generators, and a KS test at alpha = 1e-4 (false alarm once in
// 10^4 runs per check; two checks here).

const N = 50000;

describe('SecureRng', () => {
  it('uniform() is in [0, 1) and passes KS against U(0, 1)', () => {
    const r = new SecureRng();
    const x = new Float64Array(N);
    for (let i = 0; i < N; i++) {
      x[i] = r.uniform();
      assert.ok(x[i]! >= 0 && x[i]! < 1);
    }
    const d = ksStatistic(x, (u) => Math.min(1, Math.max(0, u))) * Math.sqrt(N);
    assert.ok(d < KS_SQRT_N_CRIT_1E4, `sqrt(n) D = ${d}`);
  });

  it('fillNormal() passes KS against N(0, 1) across buffer refills', () => {
    const r = new SecureRng();
    const x = new Float64Array(N);
    r.fillNormal(x);
    const d = ksStatistic(x, normalCdf) * Math.sqrt(N);
    assert.ok(d < KS_SQRT_N_CRIT_1E4, `sqrt(n) D = ${d}`);
  });

  it('two generators give different streams (no shared or default seed)', () => {
    const a = new SecureRng();
    const b = new SecureRng();
    const xa = Array.from({ length: 8 }, () => a.uniform());
    const xb = Array.from({ length: 8 }, () => b.uniform());
    assert.notDeepEqual(xa, xb); // equal with probability 2^-424
  });

  it('integer() stays in range and covers it', () => {
    const r = new SecureRng();
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = r.integer(7);
      assert.ok(Number.isInteger(v) && v >= 0 && v < 7);
      seen.add(v);
    }
    assert.equal(seen.size, 7);
    assert.throws(() => r.integer(0), /n must be an integer in \[1, 2\^32\]/);
  });

  it('has no state to save or restore', () => {
    const r = new SecureRng();
    assert.throws(() => r.saveState(), /no state to save/);
    assert.throws(
      () => r.restoreState({ algorithm: 'secure', words: [], spareNormal: null }),
      /cannot be restored/,
    );
  });
});
