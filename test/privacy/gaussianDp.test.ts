import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gaussianDelta, gaussianEpsilon, gaussianMuForTarget } from '../../src/privacy/index.js';
import { loadExactReference } from './exactReference.js';
import { relClose } from './reference.js';

test('Gaussian DP curve: epsilon(delta) and delta(1) match mpmath within 1e-9 relative, tails included', () => {
  const ref = loadExactReference();
  assert.ok(ref.gdp.length >= 24);
  for (const c of ref.gdp) {
    const where = `mu=${c.mu} delta=${c.delta}`;
    relClose(gaussianEpsilon(c.delta, c.mu), Number(c.epsilon), 1e-9, `epsilon ${where}`);
    relClose(gaussianDelta(1, c.mu), Number(c.deltaAtEpsilon1), 1e-9, `delta(1) ${where}`);
  }
});

test('mu for a target (epsilon, delta) matches mpmath and meets the target', () => {
  for (const c of loadExactReference().gdpCalibration) {
    const mu = gaussianMuForTarget(c.epsilon, c.delta);
    relClose(mu, Number(c.mu), 1e-9, `eps=${c.epsilon} delta=${c.delta}`);
    assert.ok(gaussianDelta(c.epsilon, mu) <= c.delta * (1 + 1e-12));
  }
});

test('the curve is monotone: delta falls with epsilon, rises with mu; epsilon(delta) inverts delta(epsilon)', () => {
  let prev = 1;
  for (let e = 0; e <= 20; e += 0.25) {
    const d = gaussianDelta(e, 1);
    assert.ok(d <= prev && d >= 0);
    prev = d;
  }
  assert.ok(gaussianDelta(1, 0.5) < gaussianDelta(1, 0.6));
  for (const mu of [0.1, 1, 3]) {
    const eps = gaussianEpsilon(1e-6, mu);
    relClose(gaussianDelta(eps, mu), 1e-6, 1e-9, `round trip mu=${mu}`);
  }
  assert.equal(gaussianEpsilon(0.9, 0.01), 0); // delta(0) = 2 Phi(mu/2) - 1 < 0.9
  assert.ok(gaussianDelta(40, 2) > 0 && gaussianDelta(40, 2) < 1e-50); // no underflow to 0 in the tail
});

test('bad input is refused naming the argument and the rule', () => {
  assert.throws(() => gaussianDelta(-1, 1), /epsilon must be a number >= 0/);
  assert.throws(() => gaussianEpsilon(1, 1), /delta must be in \(0, 1\)/);
  assert.throws(() => gaussianEpsilon(1e-5, Number.NaN), /mu must be a finite number >= 0/);
  assert.throws(() => gaussianMuForTarget(0, 1e-5), /epsilon must be a positive finite number/);
});
