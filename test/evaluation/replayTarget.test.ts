import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSyntheticEnvironment } from '../../src/envs/index.js';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import { opeInputFromLog } from '../../src/evaluation/opeInputFromLog.js';
import { replay } from '../../src/evaluation/replay.js';
import { replayTarget, type SelectingPolicy } from '../../src/evaluation/replayTarget.js';
import { syntheticDecisions } from '../../src/evaluation/syntheticDecisions.js';
import { createPolicy } from '../../src/policies/index.js';

const ENV = { dim: 5, arms: 20, armsPerRound: 5 };

/** Average expected reward of LinUCB's own choices over its first `rounds` rounds (on-policy). */
function onPolicyLinUcb(seed: number, rounds: number): number {
  const env = createSyntheticEnvironment(ENV, seed);
  const policy = createPolicy('linucb', { dim: ENV.dim, horizon: rounds, seed });
  const x = new Float64Array(ENV.armsPerRound * ENV.dim);
  const mu = new Float64Array(ENV.armsPerRound);
  let total = 0;
  for (let t = 0; t < rounds; t++) {
    env.nextRound(x, mu);
    const a = policy.select(x, ENV.armsPerRound);
    total += mu[a]!;
    policy.update(env.reward(a));
  }
  return total / rounds;
}

describe('replayTarget (Li et al. replay of a learning policy)', () => {
  it('learns only from matched rounds: update on a match, discard otherwise', () => {
    const log = decisionLogFromRecords(
      syntheticDecisions({ env: ENV, seed: 1, rounds: 200, logging: { kind: 'uniform' } }),
    );
    const calls = { select: 0, update: 0, discard: 0 };
    const fake: SelectingPolicy = {
      select: () => {
        calls.select++;
        return 0;
      },
      update: () => {
        calls.update++;
      },
      discard: () => {
        calls.discard++;
      },
    };
    const target = replayTarget(log, fake);
    const matches = log.chosen.filter((a) => a === 0).length;
    assert.deepEqual(calls, { select: 200, update: matches, discard: 200 - matches });
    assert.equal(
      target.reduce((s, v) => s + v, 0),
      200,
    );
  });

  // A learning policy's value varies from run to run (its path depends on the rewards it saw), and
  // the replay interval is conditional on the replayed run, so a single on-policy run need not fall
  // inside it: the test compares the average difference over environments with its standard error.
  it("under uniform logging, LinUCB's replay value agrees with its on-policy value (12 environments, mean difference within 3 SE)", () => {
    const diffs: number[] = [];
    for (let seed = 1; seed <= 12; seed++) {
      const log = decisionLogFromRecords(
        syntheticDecisions({ env: ENV, seed, rounds: 2000, logging: { kind: 'uniform' } }),
      );
      const policy = createPolicy('linucb', { dim: ENV.dim, horizon: log.rounds, seed });
      const e = replay(opeInputFromLog(log, replayTarget(log, policy)), { resamples: 300, seed });
      const truth = onPolicyLinUcb(seed, Math.round(e.effectiveSampleSize));
      diffs.push(e.value - truth);
    }
    const m = diffs.reduce((s, d) => s + d, 0) / diffs.length;
    const sd = Math.sqrt(diffs.reduce((s, d) => s + (d - m) ** 2, 0) / (diffs.length - 1));
    assert.ok(
      Math.abs(m) < 3 * (sd / Math.sqrt(diffs.length)),
      `differences ${diffs.map((d) => d.toFixed(4))}`,
    );
  });
});
