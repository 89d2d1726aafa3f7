import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  epsilonToRho,
  gaussianRho,
  groupRho,
  perRecordRho,
  sigmaForRho,
  zcdpToEpsilon,
} from '../../src/privacy/index.js';
import { loadReference, relClose } from './reference.js';

test('Gaussian mechanism: rho = Delta^2/(2 sigma^2) and sigma = Delta/sqrt(2 rho)', () => {
  assert.equal(gaussianRho(1, 1), 0.5);
  assert.equal(gaussianRho(2, 4), 0.125);
  assert.equal(sigmaForRho(0.5), 1);
  assert.equal(sigmaForRho(0.125, 2), 4);
  assert.throws(() => gaussianRho(1, 0), /sigma must be a positive finite number/);
});

test('SPEC: eps=5, delta=1e-5 gives rho = 0.4496 with the paper conversion, and back', () => {
  const rho = epsilonToRho(5, 1e-5);
  assert.ok(Math.abs(rho - 0.4496) < 5e-5, `rho=${rho}`);
  relClose(zcdpToEpsilon(rho, 1e-5), 5, 1e-12, 'round trip');
});

test('SPEC group-privacy figures: k=1 rho=0.450, k=5 0.018, k=10 0.0045', () => {
  const rho = epsilonToRho(5, 1e-5);
  assert.equal(perRecordRho(rho, 1).toFixed(3), '0.450');
  assert.equal(perRecordRho(rho, 5).toFixed(3), '0.018');
  assert.equal(perRecordRho(rho, 10).toFixed(4), '0.0045');
  relClose(groupRho(perRecordRho(rho, 10), 10), rho, 1e-14, 'k^2 rho');
});

test('zCDP conversions match the mpmath reference (classic closed form and CKS 2020)', () => {
  const ref = loadReference();
  assert.ok(ref.zcdp.length >= 12);
  for (const c of ref.zcdp) {
    const where = `eps=${c.epsilon} delta=${c.delta}`;
    relClose(epsilonToRho(c.epsilon, c.delta, 'classic'), Number(c.rhoClassic), 1e-12, `classic ${where}`);
    relClose(epsilonToRho(c.epsilon, c.delta, 'improved'), Number(c.rhoCks), 1e-9, `cks ${where}`);
  }
});

test('the CKS conversion allows more rho (less noise) than the classic one, and never exceeds epsilon', () => {
  fc.assert(
    fc.property(fc.double({ min: 0.01, max: 20, noNaN: true }), fc.integer({ min: 2, max: 12 }), (eps, k) => {
      const delta = 10 ** -k;
      const classic = epsilonToRho(eps, delta, 'classic');
      const cks = epsilonToRho(eps, delta, 'improved');
      assert.ok(cks > classic);
      assert.ok(zcdpToEpsilon(cks, delta, 'improved') <= eps);
      assert.ok(zcdpToEpsilon(classic, delta, 'classic') <= eps * (1 + 1e-12));
      assert.ok(zcdpToEpsilon(classic, delta, 'improved') < zcdpToEpsilon(classic, delta, 'classic'));
    }),
    { numRuns: 60, seed: 7 },
  );
});

test('zCDP functions validate their inputs', () => {
  assert.throws(() => epsilonToRho(0, 1e-5), /epsilon must be a positive finite number/);
  assert.throws(() => epsilonToRho(1, 1), /delta must be in \(0, 1\)/);
  assert.throws(
    () => zcdpToEpsilon(0.1, 1e-5, 'paper' as never),
    /conversion must be 'classic' or 'improved'/,
  );
  assert.throws(() => groupRho(0.1, 0), /k must be a positive integer/);
  assert.equal(zcdpToEpsilon(0, 1e-5), 0);
});

test('zCDP entry points refuse NaN, infinities, negatives and non-integers, naming the input', () => {
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 0]) {
    assert.throws(
      () => gaussianRho(bad, 1),
      /sensitivity must be a positive finite number/,
      `sensitivity ${bad}`,
    );
    assert.throws(() => gaussianRho(1, bad), /sigma must be a positive finite number/, `sigma ${bad}`);
    assert.throws(() => sigmaForRho(bad), /rho must be a positive finite number/, `rho ${bad}`);
    assert.throws(() => perRecordRho(bad, 2), /userRho must be a positive finite number/, `userRho ${bad}`);
    assert.throws(
      () => epsilonToRho(bad, 1e-5),
      /epsilon must be a positive finite number/,
      `epsilon ${bad}`,
    );
  }
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -1, -1e-300]) {
    assert.throws(
      () => zcdpToEpsilon(bad, 1e-5),
      /rho must be a finite number >= 0/,
      `zcdpToEpsilon rho ${bad}`,
    );
    assert.throws(() => groupRho(bad, 2), /rho must be a finite number >= 0/, `groupRho rho ${bad}`);
  }
  for (const k of [0, -2, 1.5, Number.NaN, 2 ** 60]) {
    assert.throws(() => groupRho(0.1, k), /k must be a positive integer/, `groupRho k ${k}`);
    assert.throws(() => perRecordRho(0.1, k), /k must be a positive integer/, `perRecordRho k ${k}`);
  }
  assert.throws(() => zcdpToEpsilon(0.1, '1e-5' as never), /delta must be in \(0, 1\)/);
  // rho = 0 is valid where the domain says >= 0: no release, no loss, under both conversions
  assert.equal(zcdpToEpsilon(0, 1e-5, 'classic'), 0);
  assert.equal(zcdpToEpsilon(0, 1e-5, 'improved'), 0);
  assert.equal(groupRho(0, 3), 0);
  assert.equal(groupRho(0.25, 3), 2.25);
  assert.equal(perRecordRho(2.25, 3), 0.25);
});

test('CKS epsilon matches mpmath at fixed rho (forward direction), and rises with rho and falls with delta', () => {
  // mpmath (dps 30, findroot of the numerical derivative; a grid of step 5e-4 agrees to 1e-8):
  // min over alpha > 1 of alpha rho + ln(1 - 1/alpha) + (ln(1/delta) - ln alpha)/(alpha - 1)
  const cases: readonly [number, number, number][] = [
    [0.4496, 1e-5, 4.448931666472822],
    [0.01, 1e-6, 0.6216926545596025],
    [3, 1e-3, 10.969116539165311],
  ];
  for (const [rho, delta, eps] of cases) {
    relClose(zcdpToEpsilon(rho, delta, 'improved'), eps, 1e-9, `rho=${rho} delta=${delta}`);
  }
  let prev = 0;
  for (const rho of [1e-6, 1e-4, 0.01, 0.1, 1, 10]) {
    const e = zcdpToEpsilon(rho, 1e-5, 'improved');
    assert.ok(e > prev, `eps(${rho}) = ${e} <= ${prev}`);
    assert.ok(e < zcdpToEpsilon(rho, 1e-5, 'classic'));
    assert.ok(zcdpToEpsilon(rho, 1e-3, 'improved') < e);
    prev = e;
  }
});
