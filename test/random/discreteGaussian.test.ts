import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  discreteGaussianRelease,
  discreteGridStep,
  discreteNoiseRefusal,
  MAX_DISCRETE_SIGMA_Z,
} from '../../src/mechanisms/discreteGaussianRelease.js';
import {
  bernoulliExp,
  createRng,
  sampleDiscreteGaussian,
  sigmaSquaredRational,
  type UniformWords,
} from '../../src/random/index.js';
import { CHI2_CRIT_1E4, chiSquare } from './goodnessOfFit.js';

// Goodness of fit against the exact pmf P(y) = exp(-y^2 / (2 sigma^2)) / sum_z exp(-z^2 / (2 sigma^2)).
// False-alarm budget: each chi-square check rejects at alpha = 1e-4 (df = 9, critical value 33.72
// from scipy.stats.chi2.isf(1e-4, 9)); 2 checks, so <= 2e-4 per choice of seeds. The uniform words
// are injected from a fixed seed, so the tests are deterministic; the "can fail" test shows the same
// check rejects sigma^2 = 4.4 when the samples have sigma^2 = 4.

/** A seeded source of 32-bit words (tests only; production uses SecureRng). */
function seededWords(seed: number): UniformWords {
  const r = createRng(seed, 'discrete-gaussian-test');
  return { word: () => r.integer(4294967296) };
}

const N = 20000;

/** Bins: y <= -4, then -3 .. 4 one each, then y >= 5 (10 bins, df 9). */
function binOf(y: number): number {
  if (y <= -4) return 0;
  if (y >= 5) return 9;
  return y + 4;
}

function expectedCounts(sigma2: number, n: number): Float64Array {
  const p = new Float64Array(10);
  let total = 0;
  for (let y = -80; y <= 80; y++) {
    const w = Math.exp((-y * y) / (2 * sigma2));
    p[binOf(y)]! += w;
    total += w;
  }
  for (let i = 0; i < 10; i++) p[i] = (p[i]! / total) * n;
  return p;
}

function observedCounts(num: bigint, den: bigint, seed: number): Float64Array {
  const src = seededWords(seed);
  const o = new Float64Array(10);
  for (let i = 0; i < N; i++) o[binOf(Number(sampleDiscreteGaussian(num, den, src)))]! += 1;
  return o;
}

describe('discrete Gaussian (Canonne, Kamath & Steinke 2020): exact pmf, alpha = 1e-4 per check', () => {
  const crit = CHI2_CRIT_1E4[9]!;

  it('sigma^2 = 4: chi-square against the exact pmf', () => {
    const c = chiSquare(observedCounts(4n, 1n, 1), expectedCounts(4, N));
    assert.ok(c < crit, `chi2 = ${c} >= ${crit}`);
  });

  it('sigma^2 = 9/4 (a non-integer rational): chi-square against the exact pmf', () => {
    const c = chiSquare(observedCounts(9n, 4n, 2), expectedCounts(2.25, N));
    assert.ok(c < crit, `chi2 = ${c} >= ${crit}`);
  });

  it('the check can fail: samples of sigma^2 = 4 are rejected against sigma^2 = 4.4', () => {
    const c = chiSquare(observedCounts(4n, 1n, 1), expectedCounts(4.4, N));
    assert.ok(c > crit, `chi2 = ${c} <= ${crit}`);
  });

  it('Bernoulli(exp(-gamma)) for gamma = 1/2 and 5/2 has the exact mean (4-sigma bounds)', () => {
    const src = seededWords(3);
    for (const [num, den] of [
      [1n, 2n],
      [5n, 2n],
    ] as const) {
      const p = Math.exp(-Number(num) / Number(den));
      let hits = 0;
      for (let i = 0; i < N; i++) if (bernoulliExp(num, den, src)) hits++;
      const sd = Math.sqrt((p * (1 - p)) / N);
      assert.ok(Math.abs(hits / N - p) < 4 * sd, `gamma ${num}/${den}: ${hits / N} vs ${p}`);
    }
  });

  it('sigma of a double is turned into an exact rational sigma^2', () => {
    assert.deepEqual(sigmaSquaredRational(1.5), [9n, 4n]);
    assert.deepEqual(sigmaSquaredRational(3), [9n, 1n]);
    assert.throws(() => sigmaSquaredRational(0), /positive and finite/);
  });
});

describe('discreteGaussianRelease: the grid mechanism', () => {
  it('outputs grid multiples around the rounded values, with the scale of sigma', () => {
    const src = seededWords(4);
    const n = 4;
    const reps = 2000;
    const sigma = 3;
    let sum2 = 0;
    const gamma = 2 ** Math.floor(Math.log2(1 / (Math.sqrt(n) * 2 ** 20))); // 2^-21
    for (let r = 0; r < reps; r++) {
      const v = Float64Array.of(0.1, -2.5, 7, 1e-9);
      discreteGaussianRelease(v, 0, n, 1, sigma, src);
      const base = [0.1, -2.5, 7, 1e-9];
      for (let i = 0; i < n; i++) {
        assert.ok(Number.isInteger(v[i]! / gamma), `${v[i]} is not a multiple of ${gamma}`);
        sum2 += (v[i]! - base[i]!) ** 2;
      }
    }
    const sd = Math.sqrt(sum2 / (reps * n));
    // the sample sd of 8000 draws is within 5% of sigma with probability > 1 - 1e-6
    assert.ok(Math.abs(sd / sigma - 1) < 0.05, `sd ${sd} vs sigma ${sigma}`);
  });

  it('refuses a value too large for the grid, and changes no coordinate (all or nothing)', () => {
    assert.throws(
      () => discreteGaussianRelease(Float64Array.of(1e12), 0, 1, 1, 1, seededWords(5)),
      /too large for the grid/,
    );
    const v = Float64Array.of(0.25, 0.5, 1e12);
    assert.throws(() => discreteGaussianRelease(v, 0, 3, 1, 1, seededWords(5)), /nothing was released/);
    assert.deepEqual([...v], [0.25, 0.5, 1e12], 'the coordinates before the bad one are untouched');
  });

  it('refuses a noise scale above MAX_DISCRETE_SIGMA_Z grid steps before drawing, and changes nothing', () => {
    const n = 5;
    const gamma = discreteGridStep(1, n);
    // sigmaZ = sigma (1 + 2^-20 + gamma sqrt(n)) / gamma: just above the largest scale released
    const sigma = (MAX_DISCRETE_SIGMA_Z * gamma * 1.01) / (1 + 2 ** -20 + gamma * Math.sqrt(n));
    const v = Float64Array.of(0.1, 0.2, 0.3, 0.4, 0.5);
    let words = 0;
    const counting = seededWords(6);
    const src: UniformWords = {
      word: () => {
        words++;
        return counting.word();
      },
    };
    assert.throws(
      () => discreteGaussianRelease(v, 0, n, 1, sigma, src),
      /noise scale .* nothing was released/,
    );
    assert.deepEqual([...v], [0.1, 0.2, 0.3, 0.4, 0.5]);
    assert.equal(words, 0, 'no secure word drawn');
    // just below it releases, on the grid
    const below = (MAX_DISCRETE_SIGMA_Z * gamma * 0.99) / (1 + 2 ** -20 + gamma * Math.sqrt(n));
    discreteGaussianRelease(v, 0, n, 1, below, seededWords(7));
    for (const x of v) assert.ok(Number.isInteger(x / gamma));
  });

  it('discreteNoiseRefusal: refuses exactly the noise scales the release could refuse, at any sensitivity', () => {
    for (const n of [1, 5, 20, 50]) {
      assert.equal(discreteNoiseRefusal(4.9, n), null, `epsilon = 1 scale at n = ${n}`);
      assert.match(String(discreteNoiseRefusal(1e12, n)), /too small/);
      // the largest accepted ratio never gives more than MAX_DISCRETE_SIGMA_Z grid steps, whatever
      // the sensitivity's mantissa (the grid step is a power of two below it)
      let lo = 1;
      let hi = 1e12;
      for (let i = 0; i < 200; i++) {
        const mid = Math.sqrt(lo * hi);
        if (discreteNoiseRefusal(mid, n) === null) lo = mid;
        else hi = mid;
      }
      for (const sens of [1, 1.5, 1.999999, 0.3, 7e-5, 123.456]) {
        const g = discreteGridStep(sens, n);
        const sigmaZ = (lo * sens * (1 + 2 ** -20) + lo * g * Math.sqrt(n)) / g;
        assert.ok(sigmaZ <= MAX_DISCRETE_SIGMA_Z, `n = ${n}, sensitivity ${sens}: sigmaZ ${sigmaZ}`);
      }
      // and it is tight within the factor 2 of the mantissa
      const g1 = discreteGridStep(1.999999, n);
      assert.ok(((hi * 1.999999) / g1) * (1 + 2 ** -20) > MAX_DISCRETE_SIGMA_Z / 2.1);
    }
  });
});
