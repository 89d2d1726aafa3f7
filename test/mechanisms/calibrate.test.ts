// The one place noise scales come from (src/mechanisms/calibrate.ts): the exact accountant is the
// default of new policies (AdaPrivate-TS at epsilon 1, delta 1e-5: sigma <= 3.74, issue 24), and
// 'zcdp' is bit for bit the paper's sigma = Delta / sqrt(2 rho / m).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calibrateGaussian } from '../../src/mechanisms/index.js';
import { createPolicy } from '../../src/policies/index.js';
import { epsilonToRho } from '../../src/privacy/index.js';

test('AdaPrivate-TS at epsilon 1, delta 1e-5 adds sigma <= 3.74 by default; its ledger claims epsilon 1 (exact)', () => {
  const p = createPolicy('adaprivate-ts', { dim: 2, horizon: 8, seed: 1, epsilon: 1, batchSize: 4 });
  assert.equal(p.config.accountant, 'exact');
  for (let t = 0; t < 4; t++) {
    p.select(Float64Array.of(1, 0, 0, 1), 2);
    p.update(0.5);
  }
  const ledger = (p.snapshot().state as { base: { ledger: { head: { sigma: number | null }[] } } }).base
    .ledger;
  const sigma = ledger.head[0]!.sigma!;
  assert.ok(sigma > 3.7 && sigma <= 3.74, `sigma ${sigma}`);
  const s = p.privacy();
  assert.equal(s.accountant, 'exact');
  assert.ok(s.epsilon <= 1 && s.epsilon > 1 - 1e-6, `epsilon ${s.epsilon}`);
  assert.ok(s.comparison !== null && s.comparison !== undefined && s.comparison.epsilon > 1.3);
});

test("accountant 'zcdp' is the paper's calibration bit for bit; zcdp refuses subsampling", () => {
  const budget = { epsilon: 1, delta: 1e-5 };
  const rho = epsilonToRho(1, 1e-5, 'classic');
  const one = calibrateGaussian('t', budget, { compositions: 1, q: 1 }, 'zcdp');
  assert.equal(one.sigma(1), 1 / Math.sqrt(2 * rho));
  const many = calibrateGaussian('t', budget, { compositions: 50, q: 1 }, 'zcdp');
  assert.equal(many.sigma(0.25), 0.25 / Math.sqrt(2 * (rho / 50)));
  assert.throws(
    () => calibrateGaussian('t', budget, { compositions: 1, q: 0.3 }, 'zcdp'),
    /no amplification/,
  );
  const exact = calibrateGaussian('t', budget, { compositions: 1, q: 1 }, 'exact');
  assert.ok(exact.multiplier < one.multiplier * 0.77, `${exact.multiplier} vs ${one.multiplier}`);
});
