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
