import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  ACCOUNTANT_NAMES,
  type AccountantName,
  calibrateGaussianNoise,
  calibrateSigma,
  discreteGaussianDeltaMargin,
  epsilonToRho,
  type GaussianPlan,
  gaussianPlanEpsilon,
  UnsupportedPrivacyEventError,
} from '../../src/privacy/index.js';
import { loadExactReference } from './exactReference.js';
import { relClose } from './reference.js';

const plan = (q = 1, compositions = 1, sensitivity = 1): GaussianPlan => ({ sensitivity, compositions, q });

test("the issue's four calibrations (delta 1e-5, sensitivity 1) match mpmath within 1e-6 and meet the target", () => {
  const ref = loadExactReference().issueCalibrations;
  assert.equal(ref.length, 4);
  for (const c of ref) {
    const cal = calibrateGaussianNoise({ epsilon: c.epsilon, delta: 1e-5 }, plan(c.q), 'exact', {
      noise: 'continuous',
    });
    relClose(cal.sigma, Number(c.sigma), 1e-6, `eps=${c.epsilon} q=${c.q}`);
    assert.ok(cal.epsilon <= c.epsilon);
    // the default (discrete sampler) needs at most a hair more noise
    const disc = calibrateGaussianNoise({ epsilon: c.epsilon, delta: 1e-5 }, plan(c.q), 'exact');
    assert.ok(disc.sigma >= cal.sigma && disc.sigma <= cal.sigma * (1 + 1e-8), `discrete ${disc.sigma}`);
  }
  const eps1 = calibrateGaussianNoise({ epsilon: 1, delta: 1e-5 }, plan(), 'exact');
  assert.ok(eps1.sigma <= 3.74, `adaprivate-ts at eps 1 may use sigma <= 3.74, got ${eps1.sigma}`);
});

test("'zcdp' is exactly the paper's calibration and 'rdp' is calibrateSigma", () => {
  for (const [eps, m, d] of [
    [1, 1, 1],
    [5, 10, 2],
    [0.5, 300, 0.25],
  ] as const) {
    const rho = epsilonToRho(eps, 1e-5);
    const paper = (d * Math.sqrt(m)) / Math.sqrt(2 * rho);
    const z = calibrateGaussianNoise({ epsilon: eps, delta: 1e-5 }, plan(1, m, d), 'zcdp');
    relClose(z.sigma, paper, 1e-12, `zcdp eps=${eps} m=${m}`);
    assert.equal(z.method, 'zcdp-classic');
  }
  const r = calibrateGaussianNoise({ epsilon: 1, delta: 1e-5 }, plan(0.3, 4, 2), 'rdp', { orders: 'paper' });
  const c = calibrateSigma(1, { q: 0.3, delta: 1e-5, steps: 4, orders: 'paper' });
  relClose(r.sigma, 2 * c.sigma, 1e-12, 'rdp');
  assert.equal(r.order, c.order);
});

test('the exact accountant needs about a quarter less noise than zCDP and RDP (issue table)', () => {
  const exact = calibrateGaussianNoise({ epsilon: 1, delta: 1e-5 }, plan(), 'exact').sigma;
  const zcdp = calibrateGaussianNoise({ epsilon: 1, delta: 1e-5 }, plan(), 'zcdp').sigma;
  assert.ok(exact / zcdp < 0.77 && exact / zcdp > 0.75, `ratio ${exact / zcdp}`);
  // today's sigma 4.9 has exact epsilon ~0.74
  const e = gaussianPlanEpsilon(4.9005551686, plan(), 1e-5, 'exact').epsilon;
  assert.ok(e > 0.74 && e < 0.745, `exact epsilon of today's release ${e}`);
});

test('a PLD calibration (q < 1, m > 1) meets its target and is below RDP', () => {
  const p = plan(0.3, 8);
  const cal = calibrateGaussianNoise({ epsilon: 1, delta: 1e-5 }, p, 'exact');
  assert.equal(cal.method, 'pld');
  assert.ok(cal.epsilon <= 1 && cal.epsilonLower <= cal.epsilon);
  assert.ok(gaussianPlanEpsilon(cal.sigma * (1 - 1e-3), p, 1e-5, 'exact').epsilon > 1, 'nearly the smallest');
  assert.ok(cal.sigma < calibrateGaussianNoise({ epsilon: 1, delta: 1e-5 }, p, 'rdp').sigma);
});

// The same contract, run against every accountant.
for (const accountant of ACCOUNTANT_NAMES) {
  const qs = accountant === 'zcdp' ? [1] : [1, 0.3];
  test(`contract (${accountant}): the calibrated sigma meets the target, and a slightly smaller one does not`, () => {
    for (const q of qs) {
      for (const eps of [0.5, 2]) {
        const c = calibrateGaussianNoise({ epsilon: eps, delta: 1e-6 }, plan(q, 3, 2), accountant);
        assert.equal(c.accountant, accountant);
        assert.ok(c.epsilon <= eps, `${accountant} q=${q} eps=${eps}: ${c.epsilon}`);
        assert.equal(gaussianPlanEpsilon(c.sigma, plan(q, 3, 2), 1e-6, accountant).epsilon, c.epsilon);
        const tol = q < 1 && accountant === 'exact' ? 1e-3 : 1e-6;
        assert.ok(gaussianPlanEpsilon(c.sigma * (1 - tol), plan(q, 3, 2), 1e-6, accountant).epsilon > eps);
      }
    }
  });

  test(`contract (${accountant}): epsilon falls with sigma, rises with compositions, scales with sensitivity`, () => {
    fc.assert(
      fc.property(fc.double({ min: 0.8, max: 20, noNaN: true }), fc.integer({ min: 1, max: 40 }), (s, m) => {
        const e = (sigma: number, mm: number, d = 1) =>
          gaussianPlanEpsilon(sigma, plan(1, mm, d), 1e-5, accountant).epsilon;
        assert.ok(e(s * 1.1, m) <= e(s, m));
        assert.ok(e(s, m + 1) >= e(s, m));
        relClose(e(3 * s, m, 3), e(s, m), 1e-9, 'scale');
      }),
      { numRuns: 25, seed: 11 },
    );
  });

  test(`contract (${accountant}): bad input is refused naming the option, the value and the rule`, () => {
    const t = { epsilon: 1, delta: 1e-5 };
    assert.throws(
      () => calibrateGaussianNoise({ epsilon: 0, delta: 1e-5 }, plan(), accountant),
      /target.epsilon must be a positive finite number. Got 0/,
    );
    assert.throws(
      () => calibrateGaussianNoise({ epsilon: 1, delta: 1 }, plan(), accountant),
      /delta must be in \(0, 1\). Got 1/,
    );
    assert.throws(
      () => calibrateGaussianNoise(t, plan(1, 0), accountant),
      /plan.compositions must be a positive integer. Got 0/,
    );
    assert.throws(
      () => calibrateGaussianNoise(t, plan(1.5), accountant),
      /plan.q must be in \(0, 1\]. Got 1.5/,
    );
    assert.throws(
      () => calibrateGaussianNoise(t, plan(1, 1, -1), accountant),
      /plan.sensitivity must be a positive finite number. Got -1/,
    );
    assert.throws(
      () => gaussianPlanEpsilon(0, plan(), 1e-5, accountant),
      /sigma must be a positive finite number. Got 0/,
    );
  });
}

test("unknown accountants are refused; 'zcdp' refuses subsampling with the typed error", () => {
  assert.throws(
    () => calibrateGaussianNoise({ epsilon: 1, delta: 1e-5 }, plan(), 'pld' as AccountantName),
    /accountant must be 'exact', 'zcdp' or 'rdp'. Got "pld"/,
  );
  assert.throws(() => gaussianPlanEpsilon(2, plan(0.5), 1e-5, 'zcdp'), UnsupportedPrivacyEventError);
});

test('differential: neither zCDP nor RDP is ever tighter than the exact accountant', () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0.6, max: 30, noNaN: true }),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 3, max: 10 }),
      (s, m, k) => {
        const delta = 10 ** -k;
        const exact = gaussianPlanEpsilon(s, plan(1, m), delta, 'exact').epsilon;
        assert.ok(gaussianPlanEpsilon(s, plan(1, m), delta, 'zcdp').epsilon >= exact);
        assert.ok(gaussianPlanEpsilon(s, plan(1, m), delta, 'rdp').epsilon >= exact);
      },
    ),
    { numRuns: 40, seed: 3 },
  );
  for (const [q, s, m] of [
    [0.3, 1, 1],
    [0.05, 0.8, 1],
    [0.3, 2, 5],
    [0.1, 1, 20],
  ] as const) {
    const exact = gaussianPlanEpsilon(s, plan(q, m), 1e-5, 'exact').epsilon;
    const rdp = gaussianPlanEpsilon(s, plan(q, m), 1e-5, 'rdp').epsilon;
    assert.ok(rdp >= exact, `q=${q} s=${s} m=${m}: rdp ${rdp} < exact ${exact}`);
  }
});

test('the discrete-Gaussian margin: proven TV bound holds on the mpmath values; discrete epsilon >= continuous, within 1e-7', () => {
  for (const c of loadExactReference().discreteTv) {
    assert.ok(Number(c.tv) <= 1 / (8 * c.s * c.s), `tv(${c.s}) = ${c.tv} > 1/(8 s^2)`);
  }
  assert.ok(discreteGaussianDeltaMargin(1, 0.0719) > 0);
  for (const q of [1, 0.3]) {
    const d = gaussianPlanEpsilon(2, plan(q), 1e-5, 'exact').epsilon;
    const c = gaussianPlanEpsilon(2, plan(q), 1e-5, 'exact', { noise: 'continuous' }).epsilon;
    assert.ok(d >= c && d <= c * (1 + 1e-7), `q=${q}: ${d} vs ${c}`);
  }
});
