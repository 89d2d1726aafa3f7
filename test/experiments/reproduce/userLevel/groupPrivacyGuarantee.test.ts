// Group privacy of an event-level guarantee for a person with k records: zCDP k^2 rho (Bun &
// Steinke), and the exact (k mu)-GDP curve checked against the audit's independent GDP solver.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gdpEpsilon } from '../../../../src/audit/index.js';
import { groupGuarantee } from '../../../../src/experiments/reproduce/userLevel/groupPrivacyGuarantee.js';
import { unitCountStats } from '../../../../src/experiments/reproduce/userLevel/unitCountStats.js';
import { epsilonToRho, zcdpToEpsilon } from '../../../../src/privacy/index.js';

describe('groupGuarantee', () => {
  test('zCDP: (k^2 rho) converted at delta; k = 1 gives the event-level epsilon back', () => {
    const rho = epsilonToRho(1, 1e-5);
    assert.ok(Math.abs(groupGuarantee(rho, 1, 1e-5, true).zcdpEpsilon! - 1) < 1e-9);
    for (const k of [2, 5, 30]) {
      const g = groupGuarantee(rho, k, 1e-5, false);
      assert.equal(g.zcdpEpsilon, zcdpToEpsilon(k * k * rho, 1e-5));
      assert.equal(g.exactEpsilon, null);
    }
  });

  test('exact: the epsilon of (k sqrt(2 rho))-GDP, below the zCDP figure', () => {
    const rho = epsilonToRho(1, 1e-5);
    for (const k of [1, 5, 30]) {
      const g = groupGuarantee(rho, k, 1e-5, true);
      const independent = gdpEpsilon(k * Math.sqrt(2 * rho), 1e-5);
      assert.ok(
        Math.abs(g.exactEpsilon! - independent) <= 1e-6 * independent,
        `k = ${k}: ${g.exactEpsilon} vs ${independent}`,
      );
      assert.ok(g.exactEpsilon! < g.zcdpEpsilon!);
    }
  });

  test('no zCDP ledger (RDP accounting): no figure; bad k refused', () => {
    assert.deepEqual(groupGuarantee(null, 3, 1e-5, true), {
      k: 3,
      rho: null,
      zcdpEpsilon: null,
      exactEpsilon: null,
    });
    assert.throws(() => groupGuarantee(0.1, 0, 1e-5, true), /k must be a positive integer. Got 0/);
  });
});

describe('unitCountStats', () => {
  test('median, 90th percentile and maximum of rewards per unit from the histogram', () => {
    assert.deepEqual(
      unitCountStats({
        units: 3,
        rewards: 12,
        histogram: [
          [1, 1],
          [2, 1],
          [9, 1],
        ],
      }),
      {
        units: 3,
        rewards: 12,
        median: 2,
        p90: 9,
        max: 9,
      },
    );
    // 10 units: 6 with 1 reward, 3 with 4, 1 with 50
    const s = unitCountStats({
      units: 10,
      rewards: 68,
      histogram: [
        [1, 6],
        [4, 3],
        [50, 1],
      ],
    });
    assert.equal(s.median, 1);
    assert.equal(s.p90, 4);
    assert.equal(s.max, 50);
  });
});
