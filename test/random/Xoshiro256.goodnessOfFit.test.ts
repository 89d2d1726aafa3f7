import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRng } from '../../src/random/index.js';
import { CHI2_CRIT_1E4, chiSquare, KS_SQRT_N_CRIT_1E4, ksStatistic, normalCdf } from './goodnessOfFit.js';

// False-alarm budget: every test below rejects at alpha = 1e-4 (one-sided chi-square upper quantile,
// or the Kolmogorov quantile). With 9 such checks the family-wise false-alarm probability is <= 9e-4
// per choice of seeds. Seeds are fixed, so the outcome is deterministic; the "can fail" tests show
// that the same thresholds reject a slightly wrong distribution.

const N = 100000;

describe('goodness of fit (alpha = 1e-4 per check)', () => {
  it('normal(): KS against N(0, 1)', () => {
    const r = createRng(101, 'gof-normal');
    const x = new Float64Array(N);
    for (let i = 0; i < N; i++) x[i] = r.normal();
    const d = ksStatistic(x, normalCdf) * Math.sqrt(N);
    assert.ok(d < KS_SQRT_N_CRIT_1E4, `sqrt(n) D = ${d} >= ${KS_SQRT_N_CRIT_1E4}`);
  });

  it('fillNormal(): KS against N(0, 1)', () => {
    const r = createRng(102, 'gof-fill');
    const x = new Float64Array(N);
    r.fillNormal(x);
    const d = ksStatistic(x, normalCdf) * Math.sqrt(N);
    assert.ok(d < KS_SQRT_N_CRIT_1E4, `sqrt(n) D = ${d} >= ${KS_SQRT_N_CRIT_1E4}`);
  });

  it('the KS check can fail: it rejects N(0, 1.03^2) at n = 1e5', () => {
    const r = createRng(103, 'gof-power');
    const x = new Float64Array(N);
    r.fillNormal(x);
    for (let i = 0; i < N; i++) x[i] = x[i]! * 1.03;
    assert.ok(ksStatistic(x, normalCdf) * Math.sqrt(N) > KS_SQRT_N_CRIT_1E4);
  });

  it('uniform(): KS against U(0, 1)', () => {
    const r = createRng(104, 'gof-uniform');
    const x = new Float64Array(N);
    for (let i = 0; i < N; i++) x[i] = r.uniform();
    const d = ksStatistic(x, (u) => Math.min(1, Math.max(0, u))) * Math.sqrt(N);
    assert.ok(d < KS_SQRT_N_CRIT_1E4, `sqrt(n) D = ${d}`);
  });

  it('bernoulli(p): chi-square, df = 1, for p in {0.3, 0.01}', () => {
    const r = createRng(105, 'gof-bernoulli');
    for (const p of [0.3, 0.01]) {
      let ones = 0;
      for (let i = 0; i < N; i++) if (r.bernoulli(p)) ones++;
      const c = chiSquare([ones, N - ones], [N * p, N * (1 - p)]);
      assert.ok(c < CHI2_CRIT_1E4[1]!, `p=${p}: ${ones} successes of ${N}, chi2 = ${c}`);
    }
  });

  it('the chi-square check can fail: bernoulli(0.31) is rejected as Bernoulli(0.3)', () => {
    const r = createRng(106, 'gof-bernoulli-power');
    let ones = 0;
    for (let i = 0; i < N; i++) if (r.bernoulli(0.31)) ones++;
    assert.ok(chiSquare([ones, N - ones], [N * 0.3, N * 0.7]) > CHI2_CRIT_1E4[1]!);
  });

  it('integer(n): chi-square over n = 7 and 10 outcomes; high/low halves for n = 3 * 2^30', () => {
    const r = createRng(107, 'gof-integer');
    for (const n of [7, 10]) {
      const counts = new Float64Array(n);
      for (let i = 0; i < N; i++) counts[r.integer(n)]!++;
      const c = chiSquare(counts, new Float64Array(n).fill(N / n));
      assert.ok(c < CHI2_CRIT_1E4[n - 1]!, `n=${n}: chi2 = ${c}`);
    }
    // A biased modulo reduction of 32-bit words would put 1/2 instead of 1/3 of the mass in the top
    // third of [0, 3 * 2^30); rejection sampling must give thirds.
    const big = 3 * 2 ** 30;
    const thirds = new Float64Array(3);
    for (let i = 0; i < N; i++) thirds[Math.floor(r.integer(big) / 2 ** 30)]!++;
    const c = chiSquare(thirds, new Float64Array(3).fill(N / 3));
    assert.ok(c < 18.42, `thirds ${[...thirds]}: chi2 = ${c} (chi2.isf(1e-4, 2) = 18.42)`);
  });

  it('sampleWithoutReplacement(6, 3): chi-square over all 120 ordered triples (df = 119)', () => {
    const r = createRng(108, 'gof-swor');
    const counts = new Float64Array(216);
    const out = new Int32Array(3);
    const scratch = new Int32Array(6);
    for (let i = 0; i < N; i++) {
      r.sampleWithoutReplacement(6, 3, out, scratch);
      counts[out[0]! * 36 + out[1]! * 6 + out[2]!]!++;
    }
    const observed: number[] = [];
    for (let a = 0; a < 6; a++)
      for (let b = 0; b < 6; b++)
        for (let c = 0; c < 6; c++) {
          const k = a * 36 + b * 6 + c;
          if (a === b || b === c || a === c) assert.equal(counts[k], 0, 'repeated index');
          else observed.push(counts[k]!);
        }
    assert.equal(observed.length, 120);
    const c = chiSquare(observed, new Float64Array(120).fill(N / 120));
    assert.ok(c < CHI2_CRIT_1E4[119]!, `chi2 = ${c}`);
  });

  it('sampleWithoutReplacement(20, 5): every index equally likely to be chosen (df = 19)', () => {
    const r = createRng(109, 'gof-swor-marginal');
    const counts = new Float64Array(20);
    const out = new Int32Array(5);
    const scratch = new Int32Array(20);
    const trials = N / 5;
    for (let i = 0; i < trials; i++) {
      r.sampleWithoutReplacement(20, 5, out, scratch);
      for (const v of out) counts[v]!++;
    }
    // each trial contributes 5 distinct indices; counts are negatively correlated across cells, which
    // only makes Pearson's statistic conservative (smaller) here.
    const c = chiSquare(counts, new Float64Array(20).fill((trials * 5) / 20));
    assert.ok(c < CHI2_CRIT_1E4[19]!, `chi2 = ${c}`);
  });
});
