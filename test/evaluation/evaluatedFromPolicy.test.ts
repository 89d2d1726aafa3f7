// A private learning policy evaluated on synthetic logs under the 'logged' learning semantics. Its
// estimand (1/n) sum_t sum_a pi_t(a | x_t) mu(x_t, a) is known exactly here: arm ids of synthetic
// logs are pool indices, and the environment knows every pool arm's expected reward.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSyntheticEnvironment } from '../../src/envs/index.js';
import { crossFitRewardModel } from '../../src/evaluation/crossFitRewardModel.js';
import type { DecisionRecord } from '../../src/evaluation/DecisionRecord.js';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import { doublyRobust } from '../../src/evaluation/doublyRobust.js';
import { evaluatedFromPolicy } from '../../src/evaluation/evaluatedFromPolicy.js';
import { ipw } from '../../src/evaluation/ipw.js';
import { opeInputFromLog } from '../../src/evaluation/opeInputFromLog.js';
import { runPolicyOnLog } from '../../src/evaluation/runPolicyOnLog.js';
import { syntheticDecisions } from '../../src/evaluation/syntheticDecisions.js';
import { createPolicy } from '../../src/policies/index.js';

const ENV = { dim: 4, arms: 20, armsPerRound: 4 };
const SEED = 5;
const R = 30;
const N = 400;

describe('evaluatedFromPolicy (AdaPrivate-TS, epsilon 1, learning from the logged rounds)', () => {
  const env = createSyntheticEnvironment(ENV, SEED);
  const records: DecisionRecord[] = [
    ...syntheticDecisions({
      env: ENV,
      seed: SEED,
      rounds: R * N,
      logging: { kind: 'softmax', temperature: 1, explore: 0.3 },
    }),
  ];
  const covered = { ipw: 0, dr: 0 };
  let spent = 0;
  let releases = 0;
  for (let r = 0; r < R; r++) {
    const chunk = records.slice(r * N, (r + 1) * N);
    const log = decisionLogFromRecords(chunk);
    const policy = createPolicy('adaprivate-ts', {
      dim: ENV.dim,
      horizon: N,
      seed: r,
      noiseSeed: r,
      epsilon: 1,
      batchSize: 50,
    });
    const target = runPolicyOnLog(log, evaluatedFromPolicy(policy, { samples: 300 }));
    policy.finish();
    spent = policy.privacy().epsilon;
    releases = policy.privacy().releases;
    let truth = 0;
    chunk.forEach((rec, t) => {
      rec.arms.forEach((arm, a) => {
        truth += (target[log.armOffsets[t]! + a]! * env.poolMeans[Number(arm.id)]!) / N;
      });
    });
    const input = opeInputFromLog(log, target, crossFitRewardModel(log));
    for (const [id, e] of [
      ['ipw', ipw(input, { resamples: 200, seed: r })],
      ['dr', doublyRobust(input, { resamples: 200, seed: r })],
    ] as const) {
      if (e.interval[0] <= truth && truth <= e.interval[1]) covered[id]++;
    }
  }

  it('IPW and DR intervals cover the value of the learning policy sequence pi_t in most logs (>= 80% of 30)', () => {
    if (process.env.ADAPRIVATE_TEST_VERBOSE) console.log(JSON.stringify(covered));
    assert.ok(covered.ipw >= 0.8 * R && covered.dr >= 0.8 * R, JSON.stringify(covered));
  });

  it('learning goes through observe: the ledger holds the batches released while evaluating, at the budget', () => {
    assert.equal(releases, N / 50);
    assert.ok(Math.abs(spent - 1) < 1e-6, String(spent));
  });
});
