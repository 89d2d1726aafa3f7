// The replay evaluator: counts a step only when the policy picks the logged arm, learns only then.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSyntheticEnvironment, replayFromEnvironment } from '../../src/envs/index.js';
import { evaluateReplay } from '../../src/experiments/evaluateReplay.js';
import { createPolicy } from '../../src/policies/index.js';

const log = (steps: number) =>
  replayFromEnvironment(createSyntheticEnvironment({ dim: 5, arms: 20 }, 4), steps, 4);

test('only effective steps are learned; the estimate is their mean logged reward', () => {
  const policy = createPolicy('lints', { dim: 5, horizon: 3000, seed: 4 });
  const r = evaluateReplay(policy, log(3000), { checkpointEvery: 1000 });
  assert.equal(r.steps, 3000);
  assert.equal(policy.roundsLearned, r.effectiveSteps); // discarded rounds are not learned
  assert.ok(
    r.effectiveSteps > 450 && r.effectiveSteps < 800,
    `effective ${r.effectiveSteps} of 3000 (K = 5)`,
  );
  assert.equal(r.ctr, r.cumulativeReward / r.effectiveSteps);
  assert.deepEqual(
    r.checkpoints.map((c) => c.round),
    [1000, 2000, 3000],
  );
  assert.equal(r.checkpoints.at(-1)!.effectiveSteps, r.effectiveSteps);
  assert.throws(() => policy.select(new Float64Array(25), 5), /the run is finished/);
});

test('bad step counts are refused', () => {
  const policy = createPolicy('linucb', { dim: 5, horizon: 10, seed: 1 });
  assert.throws(
    () => evaluateReplay(policy, log(10), { steps: 11 }),
    /steps must be a positive integer <= the 10 logged steps/,
  );
  assert.throws(
    () => evaluateReplay(policy, log(10), { checkpointEvery: 0 }),
    /checkpointEvery must be a positive integer/,
  );
});
