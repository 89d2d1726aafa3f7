// Logged inverse propensities (issue 27): the decision log's inversePropensity / propensityKind /
// resamplingCap / slot fields, read from JSON Lines and CSV, and used by IPW, SNIPW and DR in place
// of 1 / propensity.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import { doublyRobust } from '../../src/evaluation/doublyRobust.js';
import { importanceWeights } from '../../src/evaluation/importanceWeights.js';
import { ipw } from '../../src/evaluation/ipw.js';
import { logWarnings } from '../../src/evaluation/logWarnings.js';
import { opeInputFromLog } from '../../src/evaluation/opeInputFromLog.js';
import { readCsvDecisions } from '../../src/evaluation/readCsvDecisions.js';
import { snipw } from '../../src/evaluation/snipw.js';
import { createPolicy } from '../../src/policies/index.js';
import { createRng } from '../../src/random/index.js';
import { HAND } from '../fixtures/evaluation/handInput.js';

const arms = [
  { id: 'a', features: [1, 0] },
  { id: 'b', features: [0, 1] },
];

describe('logged inverse propensities', () => {
  it('replace 1/p in the weights where given (hand-computed)', () => {
    // round 1 logs an inverse propensity of 3 instead of 1/0.25 = 4; round 2 logs none (NaN)
    const input = { ...HAND, inversePropensities: Float64Array.of(2, 3, Number.NaN) };
    assert.deepEqual(Array.from(importanceWeights(input)), [0.8 * 2, 1 * 3, 0.5 / 0.5]);
    // IPW = (1.6 x 1 + 3 x 0 + 1 x 1) / 3
    assert.ok(Math.abs(ipw(input, { resamples: 10 }).value - 2.6 / 3) < 1e-12);
    // SNIPW = 2.6 / (1.6 + 3 + 1)
    assert.ok(Math.abs(snipw(input, { resamples: 10 }).value - 2.6 / 5.6) < 1e-12);
    // DR = DM + (1/n) sum w (r - q(a)): DM rounds 0.54, 0.2, 0.5; corrections 1.6 x 0.4, 3 x -0.2, 1 x 0.5
    const dr = (0.54 + 0.2 + 0.5 + 1.6 * 0.4 - 3 * 0.2 + 0.5) / 3;
    assert.ok(Math.abs(doublyRobust(input, { resamples: 10 }).value - dr) < 1e-12);
  });

  it('are read from records with their kind, cap and slot, and validated', () => {
    const log = decisionLogFromRecords([
      {
        eventId: 'e1',
        arms,
        chosen: 1,
        propensity: 0.5,
        inversePropensity: 7,
        propensityKind: 'geometric-resampling',
        resamplingCap: 100,
        slot: 2,
        reward: 1,
      },
      { eventId: 'e2', arms, chosen: 0, inversePropensity: 4, reward: 0 }, // no propensity: the inverse suffices
      { eventId: 'e3', arms, chosen: 0, propensity: 0.25, reward: 1 },
    ]);
    assert.deepEqual(Array.from(log.inversePropensity), [7, 4, Number.NaN]);
    assert.deepEqual(Array.from(log.propensityKind), [3, 0, 0]);
    assert.deepEqual(Array.from(log.slot!), [2, -1, -1]);
    const input = opeInputFromLog(log, Float64Array.of(0, 1, 1, 0, 1, 0));
    assert.equal(input.rewards.length, 3);
    assert.deepEqual(Array.from(importanceWeights(input)), [7, 4, 4]);
    const bad = (over: Record<string, unknown>, re: RegExp) =>
      assert.throws(
        () => decisionLogFromRecords([{ eventId: 'e', arms, chosen: 0, propensity: 0.5, ...over }]),
        re,
      );
    bad({ inversePropensity: 0.5 }, /records:1: inversePropensity must be a finite number >= 1/);
    bad(
      { propensityKind: 'guess' },
      /propensityKind must be one of exact, monte-carlo, geometric-resampling/,
    );
    bad({ propensityKind: 'geometric-resampling' }, /needs inversePropensity/);
    bad(
      { inversePropensity: 9, resamplingCap: 8 },
      /inversePropensity \(9\) cannot exceed resamplingCap \(8\)/,
    );
    bad({ slot: -1 }, /slot must be a non-negative integer/);
    bad({ unit: '' }, /unit must be a non-empty string/);
    bad({ unit: 7 }, /unit must be a non-empty string/);
    bad({ explorationFloor: 0 }, /explorationFloor must be a number in \(0, 1\]\. Got 0\./);
    bad({ explorationFloor: 0.6 }, /explorationFloor must be a number in \(0, 1\/2\]/);
    bad(
      { propensity: 0.05, explorationFloor: 0.1 },
      /propensity \(0\.05\) cannot be below the explorationFloor \(0\.1\)/,
    );
    const ok = decisionLogFromRecords([
      { eventId: 'e', arms, chosen: 0, propensity: 0.5, unit: 'u1', explorationFloor: 0.1 },
      { eventId: 'f', arms, chosen: 0, propensity: 0.5 },
    ]);
    assert.deepEqual(ok.units, ['u1', null]);
    assert.deepEqual(Array.from(ok.explorationFloor!), [0.1, Number.NaN]);
  });

  it('are read from the CSV form (chosen row only)', async () => {
    const csv = [
      'eventId,arm,chosen,propensity,inversePropensity,propensityKind,resamplingCap,slot,reward,x1,x2',
      'e1,a,0,,,,,,,1,0',
      'e1,b,1,0.4,3,geometric-resampling,1000,1,1,0,1',
    ].join('\n');
    const out = [];
    for await (const d of readCsvDecisions(Readable.from([csv]), 'x.csv')) out.push(d.record);
    assert.equal(out[0]!.inversePropensity, 3);
    assert.equal(out[0]!.propensityKind, 'geometric-resampling');
    assert.equal(out[0]!.resamplingCap, 1000);
    assert.equal(out[0]!.slot, 1);
    const withUnit = [
      'eventId,arm,chosen,propensity,unit,explorationFloor,reward,x1,x2',
      'e1,a,0,,,,,1,0',
      'e1,b,1,0.4,user-9,0.2,1,0,1',
    ].join('\n');
    const got = [];
    for await (const d of readCsvDecisions(Readable.from([withUnit]), 'u.csv')) got.push(d.record);
    assert.equal(got[0]!.unit, 'user-9');
    assert.equal(got[0]!.explorationFloor, 0.2);
    const misplaced = csv.replace('e1,a,0,,,,,,,1,0', 'e1,a,0,,2,,,,,1,0');
    await assert.rejects(async () => {
      for await (const _ of readCsvDecisions(Readable.from([misplaced]), 'x.csv')) void _;
    }, /x.csv:2: inversePropensity belongs on the chosen row only/);
  });

  it('a Monte Carlo propensity without an inverse is flagged as a biased weight', () => {
    const log = decisionLogFromRecords([
      { eventId: 'e1', arms, chosen: 1, propensity: 0.5, propensityKind: 'monte-carlo', reward: 1 },
    ]);
    assert.match(
      logWarnings(log).join('\n'),
      /1 of 1 propensities are Monte Carlo estimates .* biased weight/,
    );
  });

  it('IPW on a log of a frozen Thompson-sampling posterior is unbiased with the logged counts', () => {
    // logging: LinTS frozen after 22 rounds, arms ~(0.906, 0.093, 0.001); rewards Bernoulli(mean)
    const logging = createPolicy('lints', { dim: 2, horizon: 1_000_000, seed: 3, v: 1 });
    for (let i = 0; i < 11; i++) {
      logging.observe(Float64Array.of(1, 0), 0.9);
      logging.observe(Float64Array.of(0, 1), 0.1);
    }
    const x = Float64Array.of(1, 0, 0.6, 0.6, 0, 0);
    const means = [0.2, 0.5, 0.9];
    const rng = createRng(4, 'rewards');
    const n = 30_000;
    const rewards = new Float64Array(n);
    const actions = new Int32Array(n);
    const inv = new Float64Array(n);
    const mc = new Float64Array(n);
    for (let t = 0; t < n; t++) {
      const r = logging.selectWithPropensity(x, 3, { samples: 50 });
      logging.discard();
      actions[t] = r.arm;
      rewards[t] = rng.uniform() < means[r.arm]! ? 1 : 0;
      inv[t] = r.inversePropensity.value;
      mc[t] = r.propensity;
    }
    // target: always arm 1 (probability ~0.093 under logging); true value 0.5
    const target = new Float64Array(3 * n);
    for (let t = 0; t < n; t++) target[3 * t + 1] = 1;
    const offsets = Int32Array.from({ length: n + 1 }, (_, t) => 3 * t);
    const input = { rewards, actions, propensities: mc, offsets, target, inversePropensities: inv };
    const w = importanceWeights(input);
    let s = 0;
    let s2 = 0;
    for (let t = 0; t < n; t++) {
      const v = w[t]! * rewards[t]!;
      s += v;
      s2 += v * v;
    }
    const mean = s / n;
    const se = Math.sqrt((s2 / n - mean * mean) / n);
    assert.ok(Math.abs(mean - 0.5) <= 4 * se, `IPW ${mean}, SE ${se}`);
    assert.ok(Math.abs(ipw(input, { resamples: 10 }).value - mean) < 1e-12);
  });
});
