import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crossFitRewardModel, fitRidgeRewardModel } from '../../src/evaluation/crossFitRewardModel.js';
import type { DecisionRecord } from '../../src/evaluation/DecisionRecord.js';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import { createRng } from '../../src/random/index.js';

// rewards exactly 0.3 + 0.4 x1 - 0.2 x2 (no noise): ridge with a tiny lambda recovers the line
function records(n: number, seed: number): DecisionRecord[] {
  const rng = createRng(seed, 'test');
  return Array.from({ length: n }, (_, t) => {
    const arms = [0, 1].map((a) => ({ id: String(a), features: [rng.uniform() - 0.5, rng.uniform() - 0.5] }));
    const f = arms[0]!.features;
    return { eventId: `e${t}`, arms, chosen: 0, propensity: 0.5, reward: 0.3 + 0.4 * f[0]! - 0.2 * f[1]! };
  });
}

describe('crossFitRewardModel', () => {
  it('recovers a linear reward function with its intercept', () => {
    const log = decisionLogFromRecords(records(200, 1));
    const beta = fitRidgeRewardModel(
      log,
      Int32Array.from({ length: 200 }, (_, t) => t),
      1e-9,
    );
    [0.4, -0.2, 0.3].forEach((b, i) => {
      assert.ok(Math.abs(beta[i]! - b) < 1e-6, `beta ${Array.from(beta)}`);
    });
    const q = crossFitRewardModel(log, { lambda: 1e-9 });
    const x = log.features;
    for (let j = 0; j < q.length; j++) {
      const want = 0.3 + 0.4 * x[2 * j]! - 0.2 * x[2 * j + 1]!;
      assert.ok(Math.abs(q[j]! - want) < 1e-6, `${j}: ${q[j]} vs ${want}`);
    }
  });

  it("is out of fold: a round's prediction does not move when its own reward changes", () => {
    const rs = records(40, 2);
    const a = crossFitRewardModel(decisionLogFromRecords(rs));
    const changed = rs.map((r, t) => (t === 10 ? { ...r, reward: 1 - (r.reward ?? 0) } : r));
    const b = crossFitRewardModel(decisionLogFromRecords(changed));
    assert.equal(a[20], b[20], 'round 10 (arms 20, 21) uses the other fold');
    assert.equal(a[21], b[21]);
    assert.notEqual(a[22], b[22], 'round 11 is in the other fold and sees round 10');
  });

  it('keeps predictions in [0, 1] and refuses a bad lambda', () => {
    const rs = records(20, 3).map((r) => ({ ...r, reward: 1 }));
    const q = crossFitRewardModel(decisionLogFromRecords(rs), { lambda: 1e-9 });
    assert.ok(q.every((v) => v >= 0 && v <= 1));
    assert.throws(
      () => crossFitRewardModel(decisionLogFromRecords(rs), { lambda: 0 }),
      /lambda must be a finite number > 0\. Got 0\./,
    );
  });
});
