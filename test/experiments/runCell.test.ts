import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCell } from '../../src/experiments/runCell.js';
import type { CellConfig } from '../../src/experiments/types.js';
import { kernelArenaFreeBytes } from '../../src/linalg/index.js';

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

test("runCell returns its policy's kernel memory at the end of the cell (a worker runs thousands)", () => {
  // synchronous: no finalisation callback runs between the cells, so without the cell's scope the
  // free memory would fall by each policy's factor and scratch (tinypool's workers never yield to
  // their event loop between tasks either: the arena filled after ~3,600 cells and the rest of a
  // full reproduction ran on the JavaScript kernels)
  const free0 = kernelArenaFreeBytes();
  for (const policy of ['adaprivate-ts', 'adaprivate-ucb', 'zcdp-episodic', 'jdp-linucb'] as const) {
    runCell({ ...cell, policy, params: {} }, 'test');
    assert.equal(kernelArenaFreeBytes(), free0, policy);
  }
});
