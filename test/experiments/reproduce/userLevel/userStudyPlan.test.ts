// The plan of the synthetic user-level study: the per-record budgets of group privacy, the bounds
// c = 1, m = k, and the noise the table prints equal to what the one calibrator gives the policies.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { userStudyPlan } from '../../../../src/experiments/reproduce/userLevel/userStudyPlan.js';
import { userStudyScale } from '../../../../src/experiments/reproduce/userLevel/userStudyScale.js';
import { calibrateGaussianNoise, epsilonToRho, perRecordRho } from '../../../../src/privacy/index.js';

describe('userStudyPlan', () => {
  const scale = userStudyScale('full');
  const plan = userStudyPlan(scale);

  test('paper setting: user-level eps 5, k in {1, 5, 10}, 12 seeds, T = 10,000', () => {
    assert.deepEqual(scale.ks, [1, 5, 10]);
    assert.equal(plan.references.length, 3);
    for (const r of plan.references) {
      assert.equal(r.config.env.kind === 'synthetic' && r.config.env.arrivalsPerUnit, r.k);
      assert.equal(r.config.seeds.length, 12);
    }
  });

  test('group privacy: rho_u / k^2 per record (the paper table: 0.45, 0.018, 0.0045)', () => {
    const rhoU = epsilonToRho(5, 1e-5);
    for (const c of plan.cells.filter((x) => x.variant === 'group-zcdp')) {
      const want = calibrateGaussianNoise(
        { epsilon: 5, delta: 1e-5 },
        { sensitivity: c.k, compositions: 1, q: 1 },
        'zcdp',
      ).sigma;
      assert.ok(Math.abs(c.sigma - want) <= 1e-9 * want, `k = ${c.k}: ${c.sigma} vs ${want}`);
      assert.ok(Math.abs(epsilonToRho(c.epsilon, 1e-5) - perRecordRho(rhoU, c.k)) < 1e-12);
    }
  });

  test('bounds: c = 1, m = k; the printed sigma is the calibrator sigma for m releases of sensitivity c', () => {
    const bounds = plan.cells.filter((x) => x.variant === 'bounds-zcdp');
    assert.equal(bounds.length, 3, `skipped: ${JSON.stringify(plan.skipped)}`);
    for (const c of bounds) {
      assert.deepEqual(c.bounds, { contributionsPerRelease: 1, releasesPerEpoch: c.k });
      const p = c.config.policies[0]!.params;
      assert.deepEqual(
        [p.privacyUnit, p.contributionsPerRelease, p.releasesPerEpoch],
        [['user'], [1], [c.k]],
      );
      const want = calibrateGaussianNoise(
        { epsilon: 5, delta: 1e-5 },
        { sensitivity: 1, compositions: c.k, q: 1 },
        'zcdp',
      ).sigma;
      assert.ok(Math.abs(c.sigma - want) <= 1e-9 * want, `k = ${c.k}: ${c.sigma} vs ${want}`);
    }
  });

  test('the exact variants run exactly when the policies accept the exact accountant', () => {
    const withExact = userStudyPlan(scale, ['accountant', 'privacyUnit'], true);
    assert.equal(withExact.cells.filter((c) => c.variant === 'group-exact').length, 3);
    const without = userStudyPlan(scale, ['accountant', 'privacyUnit'], false);
    assert.equal(without.cells.filter((c) => c.variant.endsWith('exact')).length, 0);
    assert.match(without.skipped[0]!.reason, /refuse accountant 'exact'/);
  });

  test('variants whose options the build lacks are skipped and listed', () => {
    const p = userStudyPlan(scale, ['batchSize', 'v'], false);
    assert.equal(p.cells.filter((c) => c.variant !== 'group-zcdp').length, 0);
    assert.deepEqual(p.skipped.map((s) => s.variant).sort(), ['bounds-exact', 'bounds-zcdp', 'group-exact']);
  });
});
