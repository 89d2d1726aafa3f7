import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCell } from '../../src/experiments/runCell.js';
import type { CellConfig } from '../../src/experiments/types.js';

const cell: CellConfig = {
  env: { kind: 'synthetic', dim: 4, arms: 20, armsPerRound: 5, thetaNorm: 2, link: 'logistic' },
  protocol: 'full-information',
  policy: 'adaprivate-ts',
  epsilon: 1,
  delta: 1e-5,
  params: { batchSize: 20 },
  horizon: 200,
  seed: 3,
  checkpointEvery: 100,
} as CellConfig;

test('runCell seeds the privacy noise with the cell seed (research mode) and says so', () => {
  const a = runCell(cell, 'test');
  const b = runCell(cell, 'test');
  assert.equal(a.privacy?.noise, 'seeded');
  assert.equal(a.policyConfig.noiseSeed, 3);
  assert.deepEqual(b.checkpoints, a.checkpoints);
  // another seed gives other noise and other rounds
  const c = runCell({ ...cell, seed: 4 }, 'test');
  assert.notDeepEqual(c.checkpoints, a.checkpoints);
});
