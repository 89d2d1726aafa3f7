// The user-level audit (issue 25, study (c)): the neighbouring pair differs in every reward of one
// unit, past its bounds; the audited lower bound of a user-level policy never exceeds its user-level
// claim, while the same pair refutes an event-level policy and a policy whose bounds are evaded
// (every reward under a fresh unit id), so the test can fail. Each audit is seeded (deterministic).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  audit,
  auditMechanism,
  policyUnitReleaseMechanism,
  TARGET_UNIT,
  type UnitRewards,
  unitNeighbours,
} from '../../src/audit/index.js';

describe('unitNeighbours', () => {
  test('the target arrives c + 1 times in each of m + 1 segments; everything else is equal', () => {
    const p = unitNeighbours({ batchSize: 5, contributionsPerRelease: 2, releasesPerEpoch: 3 });
    assert.deepEqual(p.a.units, p.b.units);
    const target = p.a.units.flatMap((u, i) => (u === TARGET_UNIT ? [i] : []));
    assert.equal(target.length, 3 * 4);
    for (let i = 0; i < p.a.rewards.length; i++) {
      if (p.a.units[i] === TARGET_UNIT) {
        assert.equal(p.a.rewards[i], 0);
        assert.equal(p.b.rewards[i], 1);
      } else assert.equal(p.a.rewards[i], p.b.rewards[i]);
    }
    // segments: 3 target + 3 others (B - c), the last 3 target + 5 others
    assert.equal(p.a.units.length, 3 * (3 + 3) + (3 + 5));
    const others = p.a.units.filter((u) => u !== TARGET_UNIT);
    assert.equal(new Set(others).size, others.length, 'every other reward is a unit of its own');
  });

  test('bad shapes are refused with the option named', () => {
    assert.throws(
      () => unitNeighbours({ batchSize: 2, contributionsPerRelease: 2, releasesPerEpoch: 1 }),
      /contributionsPerRelease must be below batchSize \(2\)/,
    );
    assert.throws(
      () => unitNeighbours({ batchSize: 4, contributionsPerRelease: 1, releasesPerEpoch: 0 }),
      /releasesPerEpoch must be a positive integer. Got 0/,
    );
  });
});

describe('policyUnitReleaseMechanism', () => {
  test('outputs the released sum of every release; the bounds drop the extra rewards', () => {
    const pair = unitNeighbours({ batchSize: 4, contributionsPerRelease: 1, releasesPerEpoch: 2 });
    // a huge budget: the noise is negligible and the sums show what was learned
    const mech = policyUnitReleaseMechanism('adaprivate-ts', {
      policyOptions: {
        epsilon: 1e4,
        accountant: 'zcdp',
        batchSize: 4,
        privacyUnit: 'user',
        contributionsPerRelease: 1,
        releasesPerEpoch: 2,
      },
    });
    const a = Array.from(mech.run(pair.a, 0));
    const b = Array.from(mech.run(pair.b, 0));
    assert.equal(a.length, 3);
    // per release: 1 kept target reward (0 or 1) + 3 others at 0.5; the third: target past m, 4 others
    const want = [
      [1.5, 2.5],
      [1.5, 2.5],
      [2, 2],
    ];
    want.forEach(([wa, wb], r) => {
      assert.ok(Math.abs(a[r]! - wa!) < 0.05, `release ${r} of a: ${a[r]} vs ${wa}`);
      assert.ok(Math.abs(b[r]! - wb!) < 0.05, `release ${r} of b: ${b[r]} vs ${wb}`);
    });
    assert.ok(mech.claim().epsilon <= 1e4 * (1 + 1e-9));
  });

  test('refuses policies outside the batched family', () => {
    assert.throws(
      () => policyUnitReleaseMechanism('jdp-linucb', { policyOptions: { epsilon: 1 } }),
      /batched AdaPrivate policies/,
    );
  });
});

describe('audit --unit user', () => {
  test('the lower bound never exceeds the user-level claim (AdaPrivate-TS and -UCB, several bounds)', () => {
    for (const [policy, epsilon, c, m] of [
      ['adaprivate-ts', 3, 1, 2],
      ['adaprivate-ucb', 2, 2, 3],
    ] as const) {
      const r = audit({
        policy,
        epsilon,
        unit: 'user',
        contributionsPerRelease: c,
        releasesPerEpoch: m,
        samples: 1500,
        noiseSeed: 1,
        policyOptions: { batchSize: 5 },
      });
      assert.equal(r.unit, 'user');
      assert.ok(Math.abs(r.claim.epsilon - epsilon) < 1e-6, `${policy}: claim ${r.claim.epsilon}`);
      assert.ok(!r.refuted, `${policy}: lower bound ${r.lowerBound} exceeds the claim ${r.claim.epsilon}`);
      assert.ok(r.lowerBound <= r.claim.epsilon);
      assert.ok(r.lowerBound > 0, `${policy}: the audit sees the unit (${r.lowerBound})`);
    }
  });

  test('an event-level policy is refuted by the unit pair (its claim is per reward)', () => {
    const r = audit({
      policy: 'adaprivate-ts',
      epsilon: 1,
      unit: 'user',
      samples: 1500,
      noiseSeed: 1,
      policyOptions: { privacyUnit: 'event' },
    });
    assert.ok(r.refuted, `lower bound ${r.lowerBound} vs claim ${r.claim.epsilon}`);
  });

  test('evading the bounds (a fresh unit id per reward) is refuted', () => {
    const pair = unitNeighbours({ batchSize: 4, contributionsPerRelease: 1, releasesPerEpoch: 2 });
    const evade = (d: UnitRewards): UnitRewards => ({
      rewards: d.rewards,
      units: d.units.map((u, i) => `${u}-${i}`),
    });
    const mech = policyUnitReleaseMechanism('adaprivate-ts', {
      policyOptions: {
        epsilon: 1,
        accountant: 'zcdp',
        batchSize: 4,
        privacyUnit: 'user',
        contributionsPerRelease: 1,
        releasesPerEpoch: 2,
      },
      noiseSeed: 1,
    });
    const r = auditMechanism(
      mech,
      { a: evade(pair.a), b: evade(pair.b), description: 'evaded' },
      { samples: 1500 },
    );
    assert.ok(r.refuted, `lower bound ${r.lowerBound} vs claim ${r.claim.epsilon}`);
  });

  test('unit user needs release mode', () => {
    assert.throws(
      () => audit({ policy: 'adaprivate-ts', unit: 'user', mode: 'actions', samples: 100 }),
      /release mode only/,
    );
  });
});
