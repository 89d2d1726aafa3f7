import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPolicy } from '../../src/policies/index.js';
import { privacyView } from '../../src/service/modelViews.js';

test('privacyView: the store\'s dropped count replaces the policy\'s, in the right number ("1 reward dropped")', () => {
  const p = createPolicy('adaprivate-ts', {
    dim: 2,
    horizon: 100,
    seed: 1,
    noiseSeed: 2,
    epsilon: 1,
    batchSize: 4,
    privacyUnit: 'user',
    releasesPerEpoch: 2,
  });
  p.observe(new Float64Array([0.5, 0.5]), 1, 'a');
  const one = privacyView(p, { droppedPerRelease: 1, droppedPerEpoch: 0, openEpoch: 0 });
  assert.match(one.statement, /; 1 reward dropped by the bounds \(1 per release, 0 per epoch\)\./);
  const two = privacyView(p, { droppedPerRelease: 1, droppedPerEpoch: 1, openEpoch: 0 });
  assert.match(two.statement, /; 2 rewards dropped by the bounds \(1 per release, 1 per epoch\)\./);
  assert.deepEqual(two.dropped, { perRelease: 1, perEpoch: 1, total: 2 });
});
