// Rewards per privacy unit through the runner: the tally itself, full information with users (every
// round is one reward of its user), and a user-level policy fed the units by the runner (it drops
// the rewards past its bounds, which an event-level policy on the same rounds learns).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCell } from '../../src/experiments/runCell.js';
import type { CellConfig } from '../../src/experiments/types.js';
import { UnitTally } from '../../src/experiments/UnitTally.js';
import type { PolicyPrivacy } from '../../src/policies/index.js';

const env = { kind: 'synthetic', dim: 3, arms: 10, armsPerRound: 3, thetaNorm: 2, link: 'logistic' } as const;
const cell = (over: Partial<CellConfig>): CellConfig => ({
  env: { ...env, arrivalsPerUnit: 4 },
  protocol: 'full-information',
  policy: 'adaprivate-ts',
  epsilon: 5,
  delta: 1e-5,
  params: { batchSize: 20 },
  horizon: 200,
  seed: 1,
  checkpointEvery: 100,
  ...over,
});

describe('UnitTally', () => {
  test('histogram of rewards per unit', () => {
    const t = new UnitTally();
    for (const u of ['a', 'b', 'a', 'c', 'a', 'b']) t.add(u);
    assert.deepEqual(t.result(), {
      units: 3,
      rewards: 6,
      histogram: [
        [1, 1],
        [2, 1],
        [3, 1],
      ],
    });
  });
});

describe('runCell with units', () => {
  test('full information: every user gives its k rewards; no units without users', () => {
    const r = runCell(cell({}));
    assert.deepEqual(r.units, { units: 50, rewards: 200, histogram: [[4, 50]] });
    const plain = runCell(cell({ env }));
    assert.equal(plain.units, undefined);
    assert.equal(plain.meanReward, r.meanReward, 'an event-level policy ignores the units');
  });

  test('a user-level policy gets the units and drops what passes its bounds', () => {
    const r = runCell(
      cell({
        params: { batchSize: 20, privacyUnit: 'user', contributionsPerRelease: 1, releasesPerEpoch: 2 },
      }),
    );
    const p = r.privacy as PolicyPrivacy;
    assert.equal(p.unit, 'user');
    assert.equal(p.offered, 200);
    // 4 arrivals per user and m = 2: at least half of every user's rewards are dropped
    assert.ok(p.dropped !== undefined && p.dropped.total >= 100, `dropped ${JSON.stringify(p.dropped)}`);
    assert.ok(Math.abs(p.epsilon - 5) < 1e-6 || p.epsilon < 5, `user-level epsilon ${p.epsilon}`);
  });
});
