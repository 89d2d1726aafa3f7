import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertPrivacyEvent,
  composedEvent,
  describeEvent,
  gaussianEvent,
  parallelEvent,
  selfComposedEvent,
  subsampledGaussianEvent,
  zcdpEvent,
} from '../../src/privacy/index.js';

test('constructors build frozen readonly events', () => {
  const g = gaussianEvent(2, 3);
  assert.deepEqual(g, { kind: 'gaussian', sensitivity: 2, sigma: 3 });
  assert.ok(Object.isFrozen(g));
  assert.deepEqual(subsampledGaussianEvent(0.3, 4), { kind: 'subsampledGaussian', q: 0.3, sigma: 4 });
  assert.deepEqual(zcdpEvent(0), { kind: 'zcdp', rho: 0 });
  const c = composedEvent([g, zcdpEvent(0.1)]);
  assert.equal(c.kind, 'composed');
  assert.ok(Object.isFrozen(c.kind === 'composed' ? c.events : null));
  assert.equal(describeEvent(selfComposedEvent(g, 3)), '3 x gaussian(sensitivity=2, sigma=3)');
  assert.equal(describeEvent(parallelEvent([zcdpEvent(0.5)])), 'parallel[zcdp(rho=0.5)]');
});

test('constructors refuse bad parameters with a message naming the option, value and rule', () => {
  assert.throws(
    () => gaussianEvent(0, 1),
    /gaussianEvent: sensitivity must be a positive finite number\. Got 0\./,
  );
  assert.throws(() => gaussianEvent(1, Number.NaN), /sigma/);
  assert.throws(() => subsampledGaussianEvent(0, 1), /q must be in \(0, 1\]\. Got 0\./);
  assert.throws(() => subsampledGaussianEvent(1.5, 1), /q must be in \(0, 1\]/);
  assert.throws(() => subsampledGaussianEvent(0.5, -1), /sigma/);
  assert.throws(() => zcdpEvent(-1), /rho must be a finite number >= 0/);
  assert.throws(() => selfComposedEvent(zcdpEvent(1), 1.5), /count must be a positive integer/);
  assert.throws(() => composedEvent([]), /non-empty/);
  assert.throws(() => parallelEvent([]), /non-empty/);
});

test('assertPrivacyEvent refuses unknown kinds and malformed nested events', () => {
  assert.throws(
    () => assertPrivacyEvent({ kind: 'laplace', scale: 1 }),
    /unknown privacy event kind "laplace"/,
  );
  assert.throws(
    () => assertPrivacyEvent({ kind: 'composed', events: [{ kind: 'gaussian', sensitivity: 1, sigma: 0 }] }),
    /events\[0\]: sigma/,
  );
  assert.doesNotThrow(() =>
    assertPrivacyEvent(JSON.parse(JSON.stringify(selfComposedEvent(zcdpEvent(1), 2)))),
  );
});
