import assert from 'node:assert/strict';
import { test } from 'node:test';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import {
  POWER_HALF_WIDTH,
  POWER_PLAN_HALF_WIDTH,
  powerHalfWidths,
  powerSeedsNeeded,
} from '../../../src/experiments/reproduce/syntheticPower.js';
import { syntheticScale } from '../../../src/experiments/reproduce/syntheticScale.js';
import type { CellResult, ExperimentResult } from '../../../src/experiments/types.js';

/** A result whose TS cell earns (1 + gap_i / 100) times the UCB cell on seed i, at eps = 1 only. */
function tsVsUcb(gaps: readonly number[]): ExperimentResult {
  const cell = (policy: string, seed: number, meanReward: number) =>
    ({
      key: `${policy}-${seed}`,
      seed,
      config: { policy, epsilon: 1, params: {}, seed },
      meanReward,
      regret: null,
      privacy: null,
      checkpoints: [],
    }) as unknown as CellResult;
  const cells = gaps.flatMap((g, i) => [
    cell('adaprivate-ts', i + 1, 0.5 * (1 + g / 100)),
    cell('adaprivate-ucb', i + 1, 0.5),
  ]);
  return { cells, timings: [] } as unknown as ExperimentResult;
}

test('powerHalfWidths: the widest 95% CI half-width of each group, NaN for a group not in the results', () => {
  const scale = syntheticScale('full');
  // gaps +-2 points around 0 on 20 seeds: sd = 2 sqrt(20/19), half-width t_{0.975,19} sd / sqrt(20)
  const gaps = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 2 : -2));
  const sd = 2 * Math.sqrt(20 / 19);
  const expected = (tQuantile(0.975, 19) * sd) / Math.sqrt(20);
  const w = powerHalfWidths(scale, [tsVsUcb(gaps)]);
  assert.ok(Math.abs(w.tsVsUcb - expected) < 1e-9, `got ${w.tsVsUcb}, expected ${expected}`);
  assert.ok(Number.isNaN(w.amplification));
  assert.ok(w.tsVsUcb >= POWER_HALF_WIDTH, 'this spread on 20 seeds misses the target');
});

test('powerSeedsNeeded plans for the margin half-width: the smallest n whose t-based half-width is <= 0.45', () => {
  const scale = syntheticScale('full');
  const gaps = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 2 : -2));
  const sd = 2 * Math.sqrt(20 / 19);
  const n = powerSeedsNeeded(scale, [tsVsUcb(gaps)], POWER_PLAN_HALF_WIDTH).seeds.tsVsUcb;
  const half = (m: number) => (tQuantile(0.975, m - 1) * sd) / Math.sqrt(m);
  assert.ok(half(n) <= POWER_PLAN_HALF_WIDTH && half(n - 1) > POWER_PLAN_HALF_WIDTH, `n = ${n}`);
  // planning for 0.45 needs more seeds than for the 0.5 target (about (0.5 / 0.45)^2 = 1.23 times)
  const atTarget = powerSeedsNeeded(scale, [tsVsUcb(gaps)], POWER_HALF_WIDTH).seeds.tsVsUcb;
  assert.ok(n > atTarget && n < 1.3 * atTarget, `${n} vs ${atTarget}`);
});
