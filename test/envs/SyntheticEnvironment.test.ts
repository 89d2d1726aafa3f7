import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createSyntheticEnvironment, SyntheticEnvironment } from '../../src/envs/SyntheticEnvironment.js';

function rowNorm(x: Float64Array, off: number, d: number): number {
  let s = 0;
  for (let j = 0; j < d; j++) s += x[off + j]! * x[off + j]!;
  return Math.sqrt(s);
}

test('paper defaults: d=20, n=100, K=5, ||theta*||=2, logistic link; unit-norm pool', () => {
  const env = createSyntheticEnvironment({}, 1);
  assert.deepEqual(
    [env.dim, env.arms, env.armsPerRound, env.thetaNorm, env.link],
    [20, 100, 5, 2, 'logistic'],
  );
  assert.ok(Math.abs(rowNorm(env.theta, 0, 20) - 2) < 1e-12);
  for (let i = 0; i < env.arms; i++)
    assert.ok(Math.abs(rowNorm(env.pool, i * 20, 20) - 1) < 1e-12, `arm ${i}`);
  for (let i = 0; i < env.arms; i++) {
    let z = 0;
    for (let j = 0; j < 20; j++) z += env.pool[i * 20 + j]! * env.theta[j]!;
    assert.ok(Math.abs(env.poolMeans[i]! - 1 / (1 + Math.exp(-z))) < 1e-15);
  }
});

test('every round offers K distinct pool arms with their expected rewards (property)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 1000 }),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 2, max: 12 }),
      fc.constantFrom('logistic' as const, 'linear' as const),
      (seed, dim, arms, link) => {
        const k = Math.min(arms, 5);
        const env = createSyntheticEnvironment({ dim, arms, armsPerRound: k, thetaNorm: 1.5, link }, seed);
        const x = new Float64Array(k * dim);
        const mu = new Float64Array(k);
        for (let t = 0; t < 20; t++) {
          env.nextRound(x, mu);
          const idx = env.offeredArms();
          assert.equal(new Set(idx).size, k);
          idx.forEach((i, a) => {
            assert.ok(i >= 0 && i < arms);
            assert.deepEqual(
              Array.from(x.subarray(a * dim, (a + 1) * dim)),
              Array.from(env.pool.subarray(i * dim, (i + 1) * dim)),
            );
            assert.equal(mu[a], env.poolMeans[i]);
            assert.ok(mu[a]! >= 0 && mu[a]! <= 1);
            const r = env.reward(a);
            assert.ok(r === 0 || r === 1);
          });
        }
      },
    ),
    { seed: 42, numRuns: 60 },
  );
});

test('arms are drawn uniformly: each of n arms is offered about T K / n times', () => {
  const env = createSyntheticEnvironment({ dim: 3, arms: 10, armsPerRound: 5 }, 3);
  const x = new Float64Array(15);
  const mu = new Float64Array(5);
  const counts = new Array(10).fill(0);
  const T = 4000;
  for (let t = 0; t < T; t++) {
    env.nextRound(x, mu);
    for (const i of env.offeredArms()) counts[i]++;
  }
  // each count ~ Binomial(T, 1/2): mean 2000, sd ~31.6; 6 sd bound
  for (const c of counts) assert.ok(Math.abs(c - 2000) < 190, `count ${c}`);
});

test('realised rewards are Bernoulli with the expected mean (logistic and linear links)', () => {
  for (const link of ['logistic', 'linear'] as const) {
    const env = createSyntheticEnvironment({ dim: 4, arms: 20, armsPerRound: 5, link }, 11);
    const x = new Float64Array(20);
    const mu = new Float64Array(5);
    let sumR = 0;
    let sumMu = 0;
    let sumVar = 0;
    const T = 20000;
    for (let t = 0; t < T; t++) {
      env.nextRound(x, mu);
      const a = t % 5;
      sumR += env.reward(a);
      sumMu += mu[a]!;
      sumVar += mu[a]! * (1 - mu[a]!);
    }
    // |sum r - sum mu| below 5 standard deviations (false alarm ~6e-7)
    assert.ok(Math.abs(sumR - sumMu) < 5 * Math.sqrt(sumVar), `${link}: ${sumR} vs ${sumMu}`);
  }
});

test('linear link: mean (1 + x.theta/S)/2 in [0, 1], affine in x.theta', () => {
  const env = createSyntheticEnvironment({ dim: 5, arms: 50, thetaNorm: 3, link: 'linear' }, 2);
  for (let i = 0; i < 50; i++) {
    let z = 0;
    for (let j = 0; j < 5; j++) z += env.pool[i * 5 + j]! * env.theta[j]!;
    assert.ok(Math.abs(env.poolMeans[i]! - (1 + z / 3) / 2) < 1e-15);
    assert.ok(env.poolMeans[i]! >= 0 && env.poolMeans[i]! <= 1);
  }
});

test('common random numbers: same seed, same rounds and reward noise whatever arm is chosen', () => {
  const a = createSyntheticEnvironment({ dim: 3, arms: 8, armsPerRound: 4 }, 5);
  const b = createSyntheticEnvironment({ dim: 3, arms: 8, armsPerRound: 4 }, 5);
  const c = createSyntheticEnvironment({ dim: 3, arms: 8, armsPerRound: 4 }, 6);
  const xa = new Float64Array(12);
  const xb = new Float64Array(12);
  const xc = new Float64Array(12);
  const m = new Float64Array(4);
  let differs = false;
  for (let t = 0; t < 200; t++) {
    a.nextRound(xa, m);
    b.nextRound(xb, m);
    c.nextRound(xc, m);
    assert.deepEqual(xa, xb);
    if (xa.some((v, i) => v !== xc[i])) differs = true;
    a.reward(0); // a consumes rewards, b does not: b must stay in step
    a.reward(3);
  }
  assert.ok(differs, 'another seed gives other rounds');
  // higher-mean arm never gives a lower realised reward in the same round (monotone coupling)
  a.nextRound(xa, m);
  const order = [0, 1, 2, 3].sort((i, j) => m[i]! - m[j]!);
  for (let i = 1; i < 4; i++) assert.ok(a.reward(order[i]!) >= a.reward(order[i - 1]!));
});

test('bad options are refused with the option, the value and the rule', () => {
  assert.throws(() => new SyntheticEnvironment({ dim: 0 }, 1), /dim must be an integer >= 1\. Got 0\./);
  assert.throws(
    () => new SyntheticEnvironment({ arms: 3, armsPerRound: 5 }, 1),
    /armsPerRound must be at most arms \(3\)\. Got 5\./,
  );
  assert.throws(
    () => new SyntheticEnvironment({ thetaNorm: -1 }, 1),
    /thetaNorm must be a finite number > 0\. Got -1\./,
  );
  assert.throws(
    () => new SyntheticEnvironment({ link: 'probit' as never }, 1),
    /link must be 'logistic' or 'linear'/,
  );
  const env = createSyntheticEnvironment({}, 1);
  assert.throws(() => env.reward(0), /before the first nextRound/);
  env.nextRound(new Float64Array(100), new Float64Array(5));
  assert.throws(() => env.reward(5), /arm must be an integer in \[0, 5\)/);
});
