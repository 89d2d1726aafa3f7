import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ACCOUNTANT_NAMES,
  type AccountantName,
  composedEvent,
  createAccountant,
  gaussianEpsilon,
  gaussianEvent,
  gaussianPlanEpsilon,
  type PrivacyEvent,
  selfComposedEvent,
  subsampledGaussianEvent,
  subsampledGaussianExactEpsilon,
  UnsupportedPrivacyEventError,
  zcdpEvent,
} from '../../src/privacy/index.js';
import { relClose } from './reference.js';

// The same contract suite, run against every accountant behind the interface.
for (const name of ACCOUNTANT_NAMES) {
  test(`accountant contract (${name}): an empty accountant spends nothing`, () => {
    const a = createAccountant(name);
    assert.equal(a.name, name);
    assert.equal(a.epsilon(1e-5), 0);
    assert.equal(a.delta(1), 0);
  });

  test(`accountant contract (${name}): epsilon(delta) and delta(epsilon) are monotone and inverse`, () => {
    const a = createAccountant(name);
    a.compose(gaussianEvent(1, 3), 4);
    let prev = Number.POSITIVE_INFINITY;
    for (const d of [1e-10, 1e-8, 1e-5, 1e-3]) {
      const e = a.epsilon(d);
      assert.ok(e < prev, `${name}: epsilon falls with delta`);
      prev = e;
      // delta(epsilon(d)) <= d (a guarantee), and close to it
      const back = a.delta(e);
      assert.ok(back <= d * (1 + 1e-6), `${name}: delta(eps(${d})) = ${back}`);
      assert.ok(back >= d * 0.98, `${name}: delta(eps(${d})) = ${back} not far below`);
    }
    const before = a.epsilon(1e-5);
    a.compose(gaussianEvent(1, 3));
    assert.ok(a.epsilon(1e-5) > before, `${name}: more releases cost more`);
  });

  test(`accountant contract (${name}): unknown and malformed events are refused, nothing changes`, () => {
    const a = createAccountant(name);
    a.compose(gaussianEvent(1, 4));
    const before = a.epsilon(1e-5);
    assert.throws(
      () => a.compose({ kind: 'laplace', b: 1 } as unknown as PrivacyEvent),
      /unknown privacy event kind/,
    );
    assert.throws(
      () => a.compose({ kind: 'gaussian', sensitivity: 1, sigma: -1 } as PrivacyEvent),
      /sigma must be a positive finite number/,
    );
    assert.throws(() => a.compose(gaussianEvent(1, 4), 0), /count must be a positive integer. Got 0/);
    assert.throws(() => a.epsilon(0), /delta must be in \(0, 1\)/);
    assert.throws(() => a.delta(-1), /epsilon must be a finite number >= 0/);
    assert.equal(a.epsilon(1e-5), before);
  });

  test(`accountant contract (${name}): matches the calibrator's figure for the same plan`, () => {
    const a = createAccountant(name);
    a.compose(selfComposedEvent(gaussianEvent(2, 7), 5));
    const plan = gaussianPlanEpsilon(7, { sensitivity: 2, compositions: 5, q: 1 }, 1e-5, name);
    relClose(a.epsilon(1e-5), plan.epsilon, name === 'rdp' ? 1e-3 : 1e-9, name);
  });
}

test('exact: Gaussian compositions are Gaussian DP, a subsampled release its closed form; typed refusals', () => {
  const a = createAccountant('exact', { noise: 'continuous' });
  a.compose(composedEvent([gaussianEvent(1, 2), gaussianEvent(3, 6)]));
  relClose(a.epsilon(1e-6), gaussianEpsilon(1e-6, Math.sqrt(0.5)), 1e-12, 'gdp');
  const s = createAccountant('exact', { noise: 'continuous' });
  s.compose(subsampledGaussianEvent(0.2, 1.3));
  relClose(s.epsilon(1e-5), subsampledGaussianExactEpsilon(1e-5, 0.2, 1.3), 1e-12, 'subsampled');
  s.compose(subsampledGaussianEvent(0.2, 1.3)); // now a PLD
  assert.ok(s.epsilon(1e-5) > subsampledGaussianExactEpsilon(1e-5, 0.2, 1.3));
  assert.ok(s.delta(s.epsilon(1e-5)) <= 1e-5 * (1 + 1e-9));
  assert.throws(() => a.compose(zcdpEvent(0.1)), UnsupportedPrivacyEventError);
  const z = createAccountant('zcdp');
  assert.throws(() => z.compose(subsampledGaussianEvent(0.3, 2)), UnsupportedPrivacyEventError);
  assert.throws(
    () => createAccountant('pld' as AccountantName),
    /name must be 'exact', 'zcdp' or 'rdp'. Got "pld"/,
  );
});

test('differential: zCDP and RDP are never tighter than the exact accountant', () => {
  for (const [event, count] of [
    [gaussianEvent(1, 2), 1],
    [gaussianEvent(1, 10), 50],
    [subsampledGaussianEvent(0.3, 1.5), 1],
    [subsampledGaussianEvent(0.1, 1.2), 20],
  ] as const) {
    const exact = createAccountant('exact');
    exact.compose(event, count);
    for (const other of ['zcdp', 'rdp'] as const) {
      if (other === 'zcdp' && event.kind === 'subsampledGaussian') continue;
      const a = createAccountant(other);
      a.compose(event, count);
      assert.ok(
        a.epsilon(1e-5) >= exact.epsilon(1e-5),
        `${other} vs exact for ${JSON.stringify(event)} x${count}`,
      );
      assert.ok(a.delta(1) >= exact.delta(1));
    }
  }
});
