import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import type { EvaluatedPolicy } from '../../src/evaluation/EvaluatedPolicy.js';
import { runPolicyOnLog } from '../../src/evaluation/runPolicyOnLog.js';

// three decisions of two arms with d = 1; the second has no reward
const log = decisionLogFromRecords([
  {
    eventId: 'a',
    arms: [
      { id: 'x', features: [1] },
      { id: 'y', features: [2] },
    ],
    chosen: 0,
    propensity: 0.5,
    reward: 1,
  },
  {
    eventId: 'b',
    arms: [
      { id: 'x', features: [3] },
      { id: 'y', features: [4] },
    ],
    chosen: 1,
    propensity: 0.5,
  },
  {
    eventId: 'c',
    arms: [
      { id: 'x', features: [5] },
      { id: 'y', features: [6] },
    ],
    chosen: 1,
    propensity: 0.5,
    reward: 0,
  },
]);

/** A policy that records calls and puts probability learned/(learned+1) on arm 1. */
function recorder(): EvaluatedPolicy & { calls: string[] } {
  const calls: string[] = [];
  let learned = 0;
  return {
    calls,
    distribution: (f, k, out) => {
      calls.push(`dist ${Array.from(f.subarray(0, k)).join(',')}`);
      out[1] = learned / (learned + 1);
      out[0] = 1 - out[1]!;
    },
    learn: (x, r) => {
      calls.push(`learn ${x[0]} ${r}`);
      learned++;
    },
  };
}

describe('runPolicyOnLog', () => {
  it("'logged': reads pi_t before learning round t, learns the logged arm, skips rounds without a reward", () => {
    const p = recorder();
    const target = runPolicyOnLog(log, p);
    assert.deepEqual(p.calls, ['dist 1,2', 'learn 1 1', 'dist 5,6', 'learn 6 0']);
    assert.deepEqual(Array.from(target), [1, 0, 0, 0, 0.5, 0.5]);
  });

  it("'frozen': never learns", () => {
    const p = recorder();
    const target = runPolicyOnLog(log, p, { learning: 'frozen' });
    assert.deepEqual(p.calls, ['dist 1,2', 'dist 5,6']);
    assert.deepEqual(Array.from(target), [1, 0, 0, 0, 1, 0]);
  });

  it('refuses a distribution that is not one, naming the line', () => {
    const bad: EvaluatedPolicy = { distribution: (_f, _k, out) => out.fill(0.4) };
    assert.throws(
      () => runPolicyOnLog(log, bad, { learning: 'frozen' }),
      /records:1: the evaluated policy's probabilities sum to 0\.8, not 1\./,
    );
    assert.throws(() => runPolicyOnLog(log, bad), /learning 'logged' needs a policy that can learn/);
  });
});
