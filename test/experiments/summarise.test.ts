import assert from 'node:assert/strict';
import { test } from 'node:test';
import { percentOf } from '../../src/experiments/percentOf.js';
import { summarise } from '../../src/experiments/summarise.js';
import { tune } from '../../src/experiments/tune.js';
import type { CellConfig, CellResult } from '../../src/experiments/types.js';
import { cellsCsv, checkpointsCsv } from '../../src/experiments/writeResultsCsv.js';

const env = { kind: 'synthetic', dim: 2, arms: 4, armsPerRound: 2, thetaNorm: 2, link: 'logistic' } as const;

function cell(
  policy: string,
  epsilon: number | null,
  params: Record<string, number>,
  seed: number,
  mean: number,
): CellResult {
  const config: CellConfig = {
    env,
    protocol: 'full-information',
    policy,
    epsilon,
    delta: epsilon === null ? null : 1e-5,
    params,
    horizon: 10,
    seed,
    checkpointEvery: 5,
  };
  return {
    key: `${policy}-${epsilon}-${JSON.stringify(params)}-${seed}`,
    config,
    version: 'test',
    seed,
    environment: {},
    policyConfig: {},
    checkpoints: [
      {
        round: 5,
        cumulativeReward: 2,
        cumulativeExpectedReward: 5 * mean,
        cumulativeRegret: 1,
        effectiveSteps: null,
        ctr: null,
      },
      {
        round: 10,
        cumulativeReward: 4,
        cumulativeExpectedReward: 10 * mean,
        cumulativeRegret: 2 * seed,
        effectiveSteps: null,
        ctr: null,
      },
    ],
    meanReward: mean,
    meanRealisedReward: 0.4,
    regret: 2 * seed,
    effectiveSteps: null,
    privacy:
      epsilon === null
        ? null
        : // only `epsilon` is read by the code under test
          ({
            rho: null,
            epsilon,
            delta: 0,
            releases: 1,
            composition: 'none',
            conversion: 'none',
            order: null,
          } as unknown as CellResult['privacy']),
    clippedCount: 0,
  };
}

const cells = [
  cell('adaprivate-ts', 1, { v: 1 }, 2, 0.6),
  cell('adaprivate-ts', 1, { v: 1 }, 1, 0.5),
  cell('adaprivate-ts', 1, { v: 2 }, 1, 0.7),
  cell('adaprivate-ts', 1, { v: 2 }, 2, 0.7),
  cell('lints', null, {}, 1, 0.8),
  cell('lints', null, {}, 2, 0.8),
];

test('summarise groups by setting, orders seeds and computes curves', () => {
  const s = summarise(cells);
  assert.deepEqual(
    s.map((x) => x.setting),
    ['adaprivate-ts|eps=1|v=1', 'adaprivate-ts|eps=1|v=2', 'lints|eps=none|'],
  );
  const v1 = s[0]!;
  assert.deepEqual(v1.meanReward.seeds, [1, 2]);
  assert.deepEqual(v1.meanReward.perSeed, [0.5, 0.6]);
  assert.ok(Math.abs(v1.meanReward.mean - 0.55) < 1e-15);
  assert.deepEqual(v1.regret?.perSeed, [2, 4]);
  assert.equal(v1.curve.length, 2);
  assert.ok(Math.abs(v1.curve[1]!.reward.mean - 0.55) < 1e-12);
  assert.ok(v1.curve[1]!.reward.lo < 0.55 && v1.curve[1]!.reward.hi > 0.55);
});

test('tune picks the best mean reward per (policy, epsilon) and keeps every setting', () => {
  const t = tune(summarise(cells));
  const ts = t.find((x) => x.policy === 'adaprivate-ts')!;
  assert.deepEqual(ts.best.params, { v: 2 });
  assert.deepEqual(
    ts.all.map((x) => x.setting),
    ['adaprivate-ts|eps=1|v=2', 'adaprivate-ts|eps=1|v=1'],
  );
  assert.equal(t.length, 2);
});

test('percentOf: ratio of means and per-seed ratios', () => {
  const s = summarise(cells);
  const p = percentOf(s[0]!, s[2]!);
  assert.ok(Math.abs(p.percent - (100 * 0.55) / 0.8) < 1e-12);
  assert.deepEqual(p.perSeed?.perSeed, [62.5, 75]);
});

test('CSV writers: header, one row per cell / checkpoint, empty fields for null', () => {
  const result = { version: 'test', config: {} as never, cells, timings: [] };
  const rows = cellsCsv(result).trimEnd().split('\n');
  assert.equal(rows.length, 7);
  assert.match(rows[0]!, /^key,policy,epsilon,delta,params,seed,horizon,meanReward,/);
  assert.equal(rows[5], 'lints-null-{}-1,lints,,,,1,10,0.8,0.4,2,,,,,0');
  const cp = checkpointsCsv(result).trimEnd().split('\n');
  assert.equal(cp.length, 13);
});
