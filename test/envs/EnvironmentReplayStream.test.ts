import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayFromEnvironment } from '../../src/envs/EnvironmentReplayStream.js';
import { createSyntheticEnvironment } from '../../src/envs/SyntheticEnvironment.js';

test('replay stream: same rounds as the environment, uniform logged arm, logged reward = env reward', () => {
  const opts = { dim: 3, arms: 10, armsPerRound: 5 };
  const stream = replayFromEnvironment(createSyntheticEnvironment(opts, 4), 5000, 4);
  const twin = createSyntheticEnvironment(opts, 4);
  const xs = new Float64Array(15);
  const xt = new Float64Array(15);
  const mu = new Float64Array(5);
  const counts = [0, 0, 0, 0, 0];
  for (let t = 0; t < 5000; t++) {
    const logged = stream.nextStep(xs);
    twin.nextRound(xt, mu);
    assert.deepEqual(xs, xt);
    counts[logged]!++;
    assert.equal(stream.loggedReward(), twin.reward(logged));
  }
  // each count ~ Binomial(5000, 0.2): sd ~28; 6 sd bound
  for (const c of counts) assert.ok(Math.abs(c - 1000) < 170, `count ${c}`);
  assert.equal(stream.describe().logging, 'uniform');
});

test('replay stream refuses a bad length', () => {
  const env = createSyntheticEnvironment({}, 1);
  assert.throws(() => replayFromEnvironment(env, 0, 1), /length must be a positive integer/);
});
