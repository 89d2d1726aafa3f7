// Issue 24: the exact calibrator at large epsilon (50, 100, 1000), against mpmath (60 digits,
// test/fixtures/privacy/large_epsilon.py -> large_epsilon.json). Before the fix the discrete (secure)
// sampler's calibration found no finite sigma from eps ~ 17 on (the margin (1 + e^eps) mu^2 2^-43
// exceeded delta), and one subsampled release at a tiny noise multiplier reported eps ~ 709
// (e^eps overflowed to Infinity, so delta came out 0: a false guarantee).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  calibrateGaussianNoise,
  gaussianPlanEpsilon,
  subsampledGaussianExactEpsilon,
} from '../../src/privacy/index.js';

interface Case {
  readonly epsilon: number;
  readonly continuousSigma: number;
  readonly discreteSigma: number;
  readonly subsampledQ: number;
  readonly subsampledContinuousSigma: number;
}
const ref = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/privacy/large_epsilon.json', import.meta.url), 'utf8'),
) as { delta: number; cases: Case[] };

const close = (got: number, want: number, rel: number, what: string) =>
  assert.ok(Math.abs(got - want) <= rel * want, `${what}: got ${got}, expected ${want} (rel ${rel})`);

describe('exact calibration at large epsilon (mpmath references)', () => {
  const plan = { sensitivity: 1, compositions: 1, q: 1 };
  for (const c of ref.cases) {
    test(`eps ${c.epsilon}: continuous, discrete (secure) and one subsampled release`, () => {
      const target = { epsilon: c.epsilon, delta: ref.delta };
      const cont = calibrateGaussianNoise(target, plan, 'exact', { noise: 'continuous' });
      close(cont.sigma, c.continuousSigma, 1e-6, 'continuous sigma');
      const disc = calibrateGaussianNoise(target, plan, 'exact');
      close(disc.sigma, c.discreteSigma, 1e-6, 'discrete sigma');
      assert.equal(disc.method, 'zcdp-cks');
      assert.ok(disc.epsilon <= c.epsilon, `discrete guarantee ${disc.epsilon}`);
      const sub = calibrateGaussianNoise(target, { ...plan, q: c.subsampledQ }, 'exact', {
        noise: 'continuous',
      });
      close(sub.sigma, c.subsampledContinuousSigma, 1e-6, 'subsampled sigma');
      // the secure sampler with subsampling: finite, and its guarantee meets the target (the proven
      // margin bounds it at eps ~ 15.2 for q = 0.3: docs/privacy.md)
      const subDisc = calibrateGaussianNoise(target, { ...plan, q: c.subsampledQ }, 'exact');
      assert.ok(Number.isFinite(subDisc.sigma) && subDisc.sigma > 0);
      assert.ok(subDisc.epsilon <= c.epsilon);
      // the same sigmas recomputed by the epsilon side
      const back = gaussianPlanEpsilon(cont.sigma, plan, ref.delta, 'exact', { noise: 'continuous' });
      assert.ok(back.epsilon <= c.epsilon && back.epsilon > c.epsilon * (1 - 1e-6));
    });
  }

  test('a tiny noise multiplier is not private at any epsilon (no overflow to delta = 0)', () => {
    // with s = 1e-3 (mu = 1000) the sampled record is exposed with probability q = 0.3 up to
    // eps ~ mu^2 / 2 = 5e5 (the old code reported 709.8: e^eps overflowed and delta came out 0)
    assert.ok(subsampledGaussianExactEpsilon(1e-5, 0.3, 1e-3) > 5e5);
    const e = subsampledGaussianExactEpsilon(1e-5, 0.3, 0.0245);
    assert.ok(e > 990 && e < 1000, `eps ${e}`);
  });
});
