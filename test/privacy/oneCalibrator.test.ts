// Issue 24: one calibrator. The 'rdp' accountant's calibration of one Poisson-subsampled release is
// the paper's Amp routine, reached through calibrateGaussianNoise (the policies' mechanisms room
// calls nothing else), bit for bit: the seeded reproduction does not move. (Before, the room called
// the paper's routine while calibrateGaussianNoise bisected on its own, 1.2e-9 relative apart.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calibrateGaussian } from '../../src/mechanisms/index.js';
import { calibrateGaussianNoise, calibrateSubsampledSigma } from '../../src/privacy/index.js';

test("'rdp' for one subsampled release is the paper's routine, bit for bit, everywhere", () => {
  for (const orders of ['paper', 'extended'] as const) {
    for (const [epsilon, q] of [
      [1, 0.3],
      [0.5, 0.1],
      [5, 0.5],
    ] as const) {
      const paper = calibrateSubsampledSigma(epsilon, 1e-5, q, orders, 'classic');
      const one = calibrateGaussianNoise(
        { epsilon, delta: 1e-5 },
        { sensitivity: 1, compositions: 1, q },
        'rdp',
        {
          orders,
        },
      );
      assert.equal(one.sigma, paper.sigma, `${orders} eps ${epsilon} q ${q}`);
      assert.equal(one.order, paper.order);
      assert.ok(one.epsilon <= epsilon);
      const room = calibrateGaussian('test', { epsilon, delta: 1e-5 }, { compositions: 1, q }, 'rdp', {
        orders,
      });
      assert.equal(room.multiplier, paper.sigma);
    }
  }
});
