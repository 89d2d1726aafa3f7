import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  gaussianEpsilon,
  subsampledGaussianDelta,
  subsampledGaussianEpsilon,
  subsampledGaussianExactEpsilon,
} from '../../src/privacy/index.js';
import {
  subsampledAddLogDelta,
  subsampledRemoveLogDelta,
} from '../../src/privacy/subsampledGaussianExact.js';
import { loadExactReference } from './exactReference.js';
import { relClose } from './reference.js';

test('one subsampled Gaussian: epsilon and both directions match the numerically integrated hockey-stick', () => {
  const ref = loadExactReference();
  let addSeen = 0;
  for (const c of ref.subsampled) {
    const where = `q=${c.q} sigma=${c.sigma} delta=${c.delta}`;
    const eps = Number(c.epsilon);
    relClose(subsampledGaussianExactEpsilon(c.delta, c.q, c.sigma), eps, 1e-6, `epsilon ${where}`);
    relClose(
      Math.exp(subsampledRemoveLogDelta(eps, c.q, c.sigma)),
      Number(c.deltaRemoveAtEps),
      1e-8,
      `remove ${where}`,
    );
    const add = Number(c.deltaAddAtEps);
    if (add > 0) addSeen += 1;
    relClose(Math.exp(subsampledAddLogDelta(eps, c.q, c.sigma)), add, 1e-8, `add ${where}`, 1e-300);
  }
  assert.ok(addSeen >= 2, 'the reference exercises the add direction');
});

test('q = 1 is the Gaussian curve; subsampling never hurts; RDP is never tighter', () => {
  for (const s of [0.7, 2, 5]) {
    relClose(subsampledGaussianExactEpsilon(1e-5, 1, s), gaussianEpsilon(1e-5, 1 / s), 1e-12, `q=1 s=${s}`);
    for (const q of [0.01, 0.3, 0.9]) {
      const exact = subsampledGaussianExactEpsilon(1e-5, q, s);
      assert.ok(exact <= gaussianEpsilon(1e-5, 1 / s) + 1e-12, `q=${q} s=${s}`);
      const rdp = subsampledGaussianEpsilon(s, { q, delta: 1e-5 }).epsilon;
      assert.ok(exact <= rdp, `exact ${exact} <= rdp ${rdp} at q=${q} s=${s}`);
    }
  }
});

test('delta(epsilon) is decreasing and refuses bad input', () => {
  let prev = 1;
  for (let e = 0; e < 6; e += 0.2) {
    const d = subsampledGaussianDelta(e, 0.5, 1);
    assert.ok(d <= prev);
    prev = d;
  }
  assert.throws(() => subsampledGaussianDelta(1, 0, 1), /q must be in \(0, 1\]/);
  assert.throws(() => subsampledGaussianExactEpsilon(0, 0.5, 1), /delta must be in \(0, 1\)/);
  assert.throws(
    () => subsampledGaussianExactEpsilon(1e-5, 0.5, -1),
    /noise multiplier must be a positive finite number/,
  );
});
