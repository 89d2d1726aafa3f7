import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSyntheticEnvironment } from '../../src/envs/SyntheticEnvironment.js';
import { cellEnvironment } from '../../src/experiments/cellEnvironment.js';
import { createEnvironment } from '../../src/experiments/environmentRegistry.js';
import { runCell } from '../../src/experiments/runCell.js';
import { NO_PRIOR, runFullInformation } from '../../src/experiments/runFullInformation.js';
import { SyntheticTrace } from '../../src/experiments/SyntheticTrace.js';
import type { CellConfig, SyntheticEnvConfig } from '../../src/experiments/types.js';
import { policyIds, policyInfo } from '../../src/policies/index.js';

const ENV: SyntheticEnvConfig = {
  kind: 'synthetic',
  dim: 3,
  arms: 12,
  armsPerRound: 4,
  thetaNorm: 2,
  link: 'logistic',
};

test('SyntheticTrace: two interleaved replays give the rounds and every arm reward of the environment itself, past the first block', () => {
  const trace = new SyntheticTrace(ENV, 7);
  const a = trace.replay();
  const b = trace.replay(10);
  const fresh = createSyntheticEnvironment(ENV, 7);
  const k = ENV.armsPerRound;
  const want = { x: new Float64Array(k * ENV.dim), m: new Float64Array(k) };
  const gotA = { x: new Float64Array(k * ENV.dim), m: new Float64Array(k) };
  const gotB = { x: new Float64Array(k * ENV.dim), m: new Float64Array(k) };
  // the previous round as the environment drew it, for the lagging replay b
  const prev = { x: new Float64Array(k * ENV.dim), m: new Float64Array(k), r: new Array<number>(k) };
  // 2,500 rounds: the trace grows twice (blocks of 1,024, then doubling)
  for (let t = 0; t < 2500; t++) {
    fresh.nextRound(want.x, want.m);
    a.nextRound(gotA.x, gotA.m);
    assert.deepEqual(gotA.x, want.x, `round ${t} features`);
    assert.deepEqual(gotA.m, want.m, `round ${t} expected`);
    for (let arm = 0; arm < k; arm++) assert.equal(a.reward(arm), fresh.reward(arm), `round ${t} arm ${arm}`);
    // the second replay lags one round behind and sees the same rounds
    if (t > 0) {
      b.nextRound(gotB.x, gotB.m);
      assert.deepEqual(gotB.x, prev.x, `lagging round ${t - 1}`);
      assert.deepEqual(gotB.m, prev.m);
      for (let arm = 0; arm < k; arm++) assert.equal(b.reward(arm), prev.r[arm]);
    }
    prev.x.set(want.x);
    prev.m.set(want.m);
    for (let arm = 0; arm < k; arm++) prev.r[arm] = fresh.reward(arm);
  }
  assert.ok(trace.rounds >= 2500);
  assert.deepEqual(a.describe(), fresh.describe());
});

test('SyntheticTrace: a replay refuses a reward before its first round and an arm out of range; users are refused', () => {
  const r = new SyntheticTrace(ENV, 1).replay();
  assert.throws(() => r.reward(0), /before the first nextRound/);
  r.nextRound(new Float64Array(ENV.armsPerRound * ENV.dim), new Float64Array(ENV.armsPerRound));
  assert.throws(() => r.reward(ENV.armsPerRound), /arm must be an integer in \[0, 4\)/);
  assert.throws(() => new SyntheticTrace({ ...ENV, arrivalsPerUnit: 2 }, 1), /arrivalsPerUnit/);
});

function cellOf(policy: string, seed: number): CellConfig {
  const isPrivate = policyInfo(policy as (typeof policyIds)[number]).isPrivate;
  return {
    env: ENV,
    protocol: 'full-information',
    policy,
    epsilon: isPrivate ? 2 : null,
    delta: isPrivate ? 1e-5 : null,
    params: policy.startsWith('adaprivate') ? { batchSize: 40 } : {},
    horizon: 300,
    seed,
    checkpointEvery: 75,
  } as CellConfig;
}

test('runCell on the shared trace gives every policy the same result as a freshly drawn environment', () => {
  for (const seed of [1, 2]) {
    for (const policy of policyIds) {
      const cell = cellOf(policy, seed);
      const shared = runCell(cell, 'test');
      const own = runFullInformation(cell, createEnvironment(cell.env, seed, cell.horizon), NO_PRIOR);
      assert.deepEqual(shared.checkpoints, own.checkpoints, `${policy} seed ${seed}`);
      assert.equal(shared.meanReward, own.meanReward);
      assert.equal(shared.meanRealisedReward, own.meanRealisedReward);
      assert.equal(shared.regret, own.regret);
      assert.deepEqual(shared.privacy, cell.epsilon === null ? null : own.policy.privacy());
      assert.deepEqual(shared.environment, createEnvironment(cell.env, seed).describe());
    }
  }
});

test('cellEnvironment: a synthetic environment with users is drawn as before, not replayed', () => {
  const cell = { ...cellOf('lints', 1), env: { ...ENV, arrivalsPerUnit: 3 } } as CellConfig;
  const env = cellEnvironment(cell);
  assert.equal(typeof env.unit, 'function');
});
