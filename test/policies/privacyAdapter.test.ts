import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calibrateSubsampledSigma } from '../../src/policies/index.js';
import { createPaperPolicy as createPolicy, makeStream, play } from './helpers.js';

const stream = makeStream(31, 100, 5, 4);

test("AdaPrivate-TS-Amp reports its calibrated RDP order before the first release, the ledger's after", () => {
  const opts = { dim: 4, horizon: 100, seed: 1, noiseSeed: 1, epsilon: 1, batchSize: 50, q: 0.3 };
  const p = createPolicy('adaprivate-ts-amp', opts);
  const { order } = calibrateSubsampledSigma(1, 1e-5, 0.3, 'extended', 'classic');
  const before = p.privacy();
  assert.equal(before.releases, 0);
  assert.equal(before.order, order);
  assert.ok(Number.isFinite(order) && order > 1);
  play(p, stream, 0, 50);
  const after = p.privacy();
  assert.equal(after.releases, 1);
  assert.equal(after.order, order); // one release at the calibrated sigma: the same order attains epsilon
  assert.ok(Math.abs(after.epsilon - 1) < 1e-6);
  // a zCDP policy has no order to report
  const { q: _q, ...zcdp } = opts;
  assert.equal(createPolicy('adaprivate-ts', zcdp).privacy().order, null);
});
