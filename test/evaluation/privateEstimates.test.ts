// Private IPW and SNIPW (issue 27): one Gaussian release of (S, Q, U) through the evaluation's
// mechanism and ledger; the intervals cover sampling and privacy noise.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluationMechanism } from '../../src/evaluation/evaluationMechanism.js';
import { privateEstimates } from '../../src/evaluation/privateEstimates.js';
import { createRng } from '../../src/random/index.js';
import { HAND } from '../fixtures/evaluation/handInput.js';

describe('privateEstimates', () => {
  it('records one release in the ledger at the budget; with a huge budget it returns the hand-computed IPW and SNIPW', () => {
    const { mechanism, ledger } = evaluationMechanism({ epsilon: 1e7, delta: 1e-5 }, 1, {
      noiseSeed: 3,
      accountant: 'zcdp',
    });
    const [ipw, snipw] = privateEstimates(HAND, mechanism, { clip: 10, z: 1.96, round: 0, label: 'hand' });
    // weights 1.6, 4, 1; IPW 2.6 / 3, SNIPW 2.6 / 6.6 (noise sd ~ 0.002 here: sensitivity sqrt(16 + 2 x 256))
    assert.ok(Math.abs(ipw!.value - 2.6 / 3) < 0.01, String(ipw!.value));
    assert.ok(Math.abs(snipw!.value - 2.6 / 6.6) < 0.01, String(snipw!.value));
    const spent = ledger.spent();
    assert.equal(spent.releases, 1);
    assert.ok(Math.abs(spent.epsilon - 1e7) / 1e7 < 1e-6, String(spent.epsilon));
    assert.equal(spent.noise, 'seeded');
    // the clip lowers the weight 4 to 2: IPW (1.6 + 0 + 1) / 3
    const clipped = evaluationMechanism({ epsilon: 1e7, delta: 1e-5 }, 1, {
      noiseSeed: 3,
      accountant: 'zcdp',
    });
    const [c] = privateEstimates(HAND, clipped.mechanism, { clip: 2, z: 1.96, round: 0, label: 'clip' });
    assert.ok(Math.abs(c!.value - 2.6 / 3) < 0.01);
    assert.throws(
      () => privateEstimates(HAND, clipped.mechanism, { clip: 0, z: 1.96, round: 0, label: 'x' }),
      /clip must be a positive finite number/,
    );
  });

  it('the 95% intervals cover the true value in >= 90% of 200 logs at epsilon 1 (fixed target, Bernoulli rewards)', () => {
    const rng = createRng(11, 'private-coverage');
    const n = 2000;
    const k = 4;
    const means = [0.2, 0.4, 0.6, 0.8];
    const pi = [0.1, 0.2, 0.3, 0.4]; // truth 0.02 + 0.08 + 0.18 + 0.32 = 0.6
    let coveredIpw = 0;
    let coveredSnipw = 0;
    let noiseShare = 0;
    for (let l = 0; l < 200; l++) {
      const actions = new Int32Array(n);
      const rewards = new Float64Array(n);
      const target = new Float64Array(n * k);
      for (let t = 0; t < n; t++) {
        const a = rng.integer(k);
        actions[t] = a;
        rewards[t] = rng.uniform() < means[a]! ? 1 : 0;
        target.set(pi, t * k);
      }
      const input = {
        rewards,
        actions,
        propensities: new Float64Array(n).fill(1 / k),
        offsets: Int32Array.from({ length: n + 1 }, (_, t) => t * k),
        target,
      };
      const { mechanism } = evaluationMechanism({ epsilon: 1, delta: 1e-5 }, 1, { noiseSeed: 100 + l });
      const [ipw, snipw] = privateEstimates(input, mechanism, {
        clip: 10,
        z: 1.959964,
        round: 0,
        label: 'cov',
      });
      if (ipw!.interval[0] <= 0.6 && 0.6 <= ipw!.interval[1]) coveredIpw++;
      if (snipw!.interval[0] <= 0.6 && 0.6 <= snipw!.interval[1]) coveredSnipw++;
      noiseShare += ipw!.noiseSd / Math.hypot(ipw!.noiseSd, ipw!.samplingSd) / 200;
    }
    assert.ok(coveredIpw >= 180, `IPW covered ${coveredIpw}/200`);
    assert.ok(coveredSnipw >= 180, `SNIPW covered ${coveredSnipw}/200`);
    assert.ok(noiseShare > 0.2, `the privacy noise is a real part of the interval (share ${noiseShare})`);
  });
});
