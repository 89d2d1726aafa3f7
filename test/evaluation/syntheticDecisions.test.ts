import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import { isUniformLogging } from '../../src/evaluation/logWarnings.js';
import { syntheticDecisions } from '../../src/evaluation/syntheticDecisions.js';

describe('syntheticDecisions', () => {
  const env = { dim: 3, arms: 10, armsPerRound: 4 };
  it('writes valid contract-4 decisions, the same for the same seed', () => {
    const a = [...syntheticDecisions({ env, seed: 3, rounds: 30 })];
    const b = [...syntheticDecisions({ env, seed: 3, rounds: 30 })];
    assert.deepEqual(a, b);
    const log = decisionLogFromRecords(a);
    assert.equal(log.rounds, 30);
    assert.equal(log.dim, 3);
    for (const r of a) {
      assert.equal(r.propensity, r.probabilities![r.chosen]);
      assert.ok(r.propensity! >= 0.2 / 4 - 1e-15, 'explore share 0.2 bounds every propensity below by 0.05');
    }
  });

  it("'uniform' logging gives propensity 1/K", () => {
    const log = decisionLogFromRecords(
      syntheticDecisions({ env, seed: 3, rounds: 20, logging: { kind: 'uniform' } }),
    );
    assert.ok(isUniformLogging(log));
    assert.ok(log.propensity.every((p) => p === 0.25));
  });

  it('refuses a bad number of rounds', () => {
    assert.throws(
      () => [...syntheticDecisions({ env, seed: 1, rounds: 0 })],
      /rounds must be a positive integer\. Got 0\./,
    );
  });
});
