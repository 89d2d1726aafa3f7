import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  calibrateSigma,
  epsilonFloor,
  PAPER_ORDERS,
  subsampledGaussianEpsilon,
  UnreachablePrivacyTargetError,
} from '../../src/privacy/index.js';

test('the calibrated sigma meets the target, and 1e-6 less noise does not', () => {
  for (const [eps, q, steps, orders] of [
    [1, 0.3, 1, 'extended'],
    [5, 1, 1, 'paper'],
    [0.5, 0.1, 100, 'extended'],
    [2, 0.7, 1, [2, 4, 8, 16]],
  ] as const) {
    const s = { q, delta: 1e-5, steps, orders };
    const c = calibrateSigma(eps, s);
    const at = subsampledGaussianEpsilon(c.sigma, s);
    assert.ok(at.epsilon <= eps, `eps at sigma ${at.epsilon} > ${eps}`);
    assert.equal(at.order, c.order);
    assert.ok(c.epsilon <= eps);
    const below = subsampledGaussianEpsilon(c.sigma * (1 - 1e-6), s);
    assert.ok(below.epsilon > eps, `sigma*(1-1e-6) still meets eps=${eps}: ${below.epsilon}`);
  }
});

test('an unreachable target is a clear error saying why and what would work', () => {
  // SPEC: at delta=1e-5 on the paper grid, classic conversion, no sigma gives eps <= 0.183
  const floor = epsilonFloor(PAPER_ORDERS, 1e-5, 'classic');
  assert.equal(floor.order, 64);
  assert.ok(Math.abs(floor.epsilon - 0.1827) < 1e-4);
  assert.throws(
    () => calibrateSigma(0.1, { q: 0.3, delta: 1e-5, orders: 'paper' }),
    (e: unknown) =>
      e instanceof UnreachablePrivacyTargetError &&
      /unreachable with orders up to 64 and the classic conversion/.test(e.message) &&
      /What would work/.test(e.message) &&
      /extended grid/.test(e.message) &&
      Math.abs(e.epsilonFloor - floor.epsilon) < 1e-12,
  );
  // ... and the extended grid reaches it
  assert.ok(calibrateSigma(0.1, { q: 0.3, delta: 1e-5 }).sigma > 0);
});

test('properties: epsilon rises with steps and q, falls with sigma; calibrate(epsilon(sigma)) = sigma', () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0.5, max: 20, noNaN: true }),
      fc.double({ min: 0.05, max: 1, noNaN: true }),
      fc.integer({ min: 1, max: 1000 }),
      (sigma, q, steps) => {
        const s = { q, delta: 1e-5, steps, orders: 'paper' as const };
        const e = subsampledGaussianEpsilon(sigma, s).epsilon;
        assert.ok(subsampledGaussianEpsilon(sigma, { ...s, steps: steps + 1 }).epsilon >= e);
        assert.ok(subsampledGaussianEpsilon(sigma, { ...s, q: Math.min(1, q * 1.1) }).epsilon >= e);
        assert.ok(subsampledGaussianEpsilon(sigma * 1.1, s).epsilon <= e);
        const c = calibrateSigma(e, s);
        assert.ok(c.sigma <= sigma * (1 + 1e-7), `calibrated ${c.sigma} > ${sigma}`);
        assert.ok(c.sigma >= sigma * (1 - 1e-6), `calibrated ${c.sigma} << ${sigma}`);
      },
    ),
    { numRuns: 15, seed: 11 },
  );
});

test('calibration validates its inputs', () => {
  assert.throws(() => calibrateSigma(0, { q: 0.3, delta: 1e-5 }), /epsilon must be a positive finite number/);
  assert.throws(() => calibrateSigma(1, { q: 0, delta: 1e-5 }), /q must be in \(0, 1\]/);
  assert.throws(() => calibrateSigma(1, { q: 0.5, delta: 2 }), /delta must be in \(0, 1\)/);
  assert.throws(
    () => calibrateSigma(1, { q: 0.5, delta: 1e-5, orders: [0.5, 2] }),
    /every order must be a finite number > 1/,
  );
  assert.throws(
    () => calibrateSigma(1, { q: 0.5, delta: 1e-5, steps: 0 }),
    /steps must be a positive integer/,
  );
});

test('the improved conversion needs less noise than the classic one', () => {
  const a = calibrateSigma(1, { q: 0.3, delta: 1e-5, conversion: 'classic' });
  const b = calibrateSigma(1, { q: 0.3, delta: 1e-5, conversion: 'improved' });
  assert.ok(b.sigma < a.sigma);
});
