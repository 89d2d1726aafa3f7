import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rngStreams } from '../../src/random/createRng.js';
import { createRng } from '../../src/random/index.js';
import { correlation } from './goodnessOfFit.js';

const draw = (seed: number, stream: string, n: number): Float64Array => {
  const r = createRng(seed, stream);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = r.uniform();
  return out;
};

describe('createRng', () => {
  it('is reproducible: same (seed, stream) gives the same sequence of every sampler', () => {
    const a = createRng(2024, 'noise');
    const b = createRng(2024, 'noise');
    const buf = new Float64Array(9);
    const bufB = new Float64Array(9);
    for (let i = 0; i < 500; i++) {
      assert.equal(a.uniform(), b.uniform());
      assert.equal(a.normal(), b.normal());
      assert.equal(a.integer(37), b.integer(37));
      assert.equal(a.bernoulli(0.3), b.bernoulli(0.3));
    }
    a.fillNormal(buf);
    b.fillNormal(bufB);
    assert.deepEqual(buf, bufB);
  });

  it('is stable across versions: the state derived from (42, "env") is pinned', () => {
    // Changing the derivation or the algorithm breaks the reproducibility of every recorded result;
    // if this is intended, bump the algorithm tag and update these values together.
    const r = createRng(42, 'env');
    assert.deepEqual(r.saveState(), {
      algorithm: 'xoshiro256**/polar',
      words: ['39fa04870ea385fa', '5c5cd5d4b093f6c2', '221df60cc9dcc9c5', '62d53b5b6624e07a'],
      spareNormal: null,
    });
    assert.equal(r.uniform(), 0.15935048577483735);
    assert.equal(r.normal(), 1.3127078348832444);
    assert.equal(r.integer(100), 68);
  });

  it('gives different sequences for different stream names and seeds', () => {
    const names = ['', 'env', 'policy', 'noise', 'Env', 'env ', 'noise2', 'é'];
    const firsts = new Set<number>();
    for (const s of names)
      for (const seed of [0, 1, 2, 2 ** 53 - 1]) firsts.add(createRng(seed, s).uniform());
    assert.equal(firsts.size, names.length * 4);
  });

  it('streams are uncorrelated (|r| < 4.42/sqrt(n): two-sided alpha = 1e-5 per pair)', () => {
    // False-alarm budget: 6 pairs x 1e-5 = 6e-5 for this test (fixed seeds, so deterministic).
    const n = 50000;
    const crit = 4.417 / Math.sqrt(n);
    const env = draw(7, 'env', n);
    const pol = draw(7, 'policy', n);
    const noise = draw(7, 'noise', n);
    const env8 = draw(8, 'env', n);
    const shifted = env.subarray(1);
    const pairs: [string, Float64Array, Float64Array][] = [
      ['env/policy', env, pol],
      ['env/noise', env, noise],
      ['policy/noise', pol, noise],
      ['seed 7/seed 8', env, env8],
      ['lag 1', env.subarray(0, n - 1), shifted],
      ['env/policy lag 1', env.subarray(0, n - 1), pol.subarray(1)],
    ];
    for (const [label, x, y] of pairs) {
      const r = correlation(x, y);
      assert.ok(Math.abs(r) < crit, `${label}: correlation ${r} exceeds ${crit}`);
    }
  });

  it('the correlation check can fail: a stream is perfectly correlated with itself', () => {
    const x = draw(7, 'env', 1000);
    assert.ok(correlation(x, draw(7, 'env', 1000)) > 0.999);
  });

  it('refuses bad seeds and streams with a message naming the option, value and rule', () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53, Number.POSITIVE_INFINITY]) {
      assert.throws(() => createRng(bad), /createRng: seed must be a non-negative safe integer.*Got/);
    }
    assert.throws(() => createRng('1' as unknown as number), /seed must be/);
    assert.throws(() => createRng(1, 3 as unknown as string), /createRng: stream must be a string/);
  });
});

describe('rngStreams', () => {
  it('gives exactly the generators of createRng(seed, prefix + rest)', () => {
    for (const seed of [0, 1, 42, 2 ** 53 - 1]) {
      for (const prefix of ['', 'probabilities:', 'é-∑']) {
        const streams = rngStreams(seed, prefix);
        for (const rest of ['', '0', '7', '12345', '999999999', 'x', 'ü']) {
          const a = streams(rest);
          const b = createRng(seed, prefix + rest);
          assert.deepEqual(a.saveState(), b.saveState(), `seed ${seed}, '${prefix}' + '${rest}'`);
          for (let i = 0; i < 5; i++) assert.equal(a.uniform(), b.uniform());
        }
      }
    }
  });

  it('the comparison can fail: the prefix is part of the name (other prefix, other generator)', () => {
    assert.notDeepEqual(rngStreams(42, 'probabilities:')('1').saveState(), createRng(42, '1').saveState());
    assert.notDeepEqual(rngStreams(42, 'ab')('c').saveState(), createRng(42, 'abd').saveState());
  });

  it('refuses a bad seed like createRng', () => {
    assert.throws(() => rngStreams(-1, 'p'), /rngStreams: seed must be a non-negative safe integer/);
  });
});
