// Warnings and notes of evaluateOnLog (issue 27): policy-specific warnings name their policy,
// estimates outside [0, 1] are commented, zero-reward estimates get a one-sided interval; runs of a
// randomised policy are pooled by combineRuns.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combineRuns, repeatReplicates } from '../../src/evaluation/combineRuns.js';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import type { Estimate } from '../../src/evaluation/Estimate.js';
import { evaluateOnLog } from '../../src/evaluation/evaluateOnLog.js';
import { pairedRatio } from '../../src/evaluation/pairedRatio.js';
import { ZERO_REWARD_NOTE, zeroRewardInterval } from '../../src/evaluation/zeroRewardInterval.js';

const arms = [
  { id: 'a', features: [1, 0] },
  { id: 'b', features: [0, 1] },
];
// the target always plays arm b; arm b was logged with propensity 0.1 and always paid 1
const log = decisionLogFromRecords(
  Array.from({ length: 40 }, (_, t) => ({
    eventId: `e${t}`,
    arms,
    chosen: t % 4 === 0 ? 1 : 0,
    propensity: t % 4 === 0 ? 0.1 : 0.9,
    reward: t % 4 === 0 ? 1 : 0,
  })),
);
const alwaysB = { distribution: (_f: Float64Array, _k: number, out: Float64Array) => out.set([0, 1]) };

describe('evaluateOnLog warnings and notes', () => {
  it('an IPW estimate above 1 is commented and the warning names the policy', () => {
    const r = evaluateOnLog(
      log,
      { evaluated: () => alwaysB },
      { learning: 'frozen', estimators: ['ipw', 'snipw'], policyLabel: 'Always-B', resamples: 50 },
    );
    // IPW = (1/40) x 10 x (1/0.1) x 1 = 2.5 (hand-computed); SNIPW = 1
    assert.ok(Math.abs(r.estimates[0]!.value - 2.5) < 1e-12);
    const w = r.warnings.filter((x) => /outside \[0, 1\]/.test(x));
    assert.equal(w.length, 1, r.warnings.join('\n'));
    assert.match(w[0]!, /^Always-B: IPW: the estimate 2\.500 is outside \[0, 1\]/);
    // the low effective-sample-size warning is the policy's too
    assert.ok(
      r.warnings.filter((x) => /effective sample size/.test(x)).every((x) => x.startsWith('Always-B: ')),
    );
  });

  it('zero rewards on the rounds an estimate uses: one-sided exact interval [0, 1 - 0.05^(1/m)] and a note', () => {
    const e: Estimate = {
      estimator: 'replay',
      value: 0,
      interval: [0, 0],
      level: 0.95,
      effectiveSampleSize: 46,
      rounds: 10_000,
      replicates: new Float64Array(3),
    };
    const z = zeroRewardInterval(e);
    assert.equal(z.note, ZERO_REWARD_NOTE);
    assert.ok(Math.abs(z.interval[1] - (1 - 0.05 ** (1 / 46))) < 1e-15);
    const positive: Estimate = { ...e, value: 0.01, interval: [0, 0.02] };
    assert.equal(zeroRewardInterval(positive), positive);
  });

  it('combineRuns: the mean of the runs and the percentile interval of their pooled replicates', () => {
    const mk = (value: number, reps: number[]): Estimate => ({
      estimator: 'dr',
      value,
      interval: [0, 1],
      level: 0.5,
      effectiveSampleSize: 10,
      rounds: 5,
      replicates: Float64Array.from(reps),
    });
    const c = combineRuns([mk(0.2, [0.1, 0.2, 0.3]), mk(0.6, [0.5, 0.6, 0.7])]);
    assert.ok(Math.abs(c.value - 0.4) < 1e-15);
    assert.equal(c.runs, 2);
    assert.ok(Math.abs(c.betweenRunSd - Math.sqrt(0.08)) < 1e-15);
    // pooled sorted 0.1 0.2 0.3 0.5 0.6 0.7, 25% and 75% type-7 quantiles: 0.225 and 0.575
    assert.ok(
      Math.abs(c.interval[0] - 0.225) < 1e-12 && Math.abs(c.interval[1] - 0.575) < 1e-12,
      String(c.interval),
    );
    // stays paired with the logging policy repeated as many times
    const base = mk(0.5, [0.5, 0.5, 0.5]);
    assert.ok(Math.abs(pairedRatio(c, repeatReplicates(base, 2), 0.5).ratio - 0.8) < 1e-12);
    assert.throws(() => combineRuns([]), /at least one run/);
  });
});
