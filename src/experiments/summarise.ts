/**
 * Groups cell results by setting (policy, epsilon, params) and summarises each over seeds: mean,
 * standard deviation and 95% CI of the mean reward, the final regret and the privacy actually
 * spent, plus mean curves with 95% bands at every checkpoint.
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { seedStats } from './seedStats.js';
import { settingId } from './settingId.js';
import type { CellResult, Checkpoint, CurvePoint, SettingSummary } from './types.js';

function band(values: readonly number[]): { mean: number; lo: number; hi: number } {
  const n = values.length;
  let mean = 0;
  for (const v of values) mean += v;
  mean /= n;
  if (n < 2) return { mean, lo: mean, hi: mean };
  let ss = 0;
  for (const v of values) ss += (v - mean) * (v - mean);
  const half = tQuantile(0.975, n - 1) * Math.sqrt(ss / (n - 1) / n);
  return { mean, lo: mean - half, hi: mean + half };
}

/** Average reward per round at a checkpoint: expected reward (full information) or CTR (replay; 0 before any effective step). */
export function checkpointReward(c: Checkpoint): number {
  if (c.cumulativeExpectedReward !== null) return c.cumulativeExpectedReward / c.round;
  return c.ctr ?? 0;
}

function compareEps(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a - b;
}

/**
 * One summary per setting, sorted by policy id, epsilon (non-private first) and setting id; within
 * a setting, seeds ascending.
 *
 * @example
 * summarise(result.cells)[0].meanReward.mean; // returns e.g. 0.8123
 */
export function summarise(cells: readonly CellResult[]): SettingSummary[] {
  const groups = new Map<string, CellResult[]>();
  for (const c of cells) {
    const id = settingId(c.config.policy, c.config.epsilon, c.config.params);
    const g = groups.get(id);
    if (g === undefined) groups.set(id, [c]);
    else g.push(c);
  }
  const out: SettingSummary[] = [];
  for (const [id, group] of groups) {
    group.sort((a, b) => a.seed - b.seed);
    const seeds = group.map((c) => c.seed);
    const first = group[0]!;
    const replay = first.regret === null;
    const curve: CurvePoint[] = first.checkpoints.map((cp, i) => {
      const rewards = group.map((c) => checkpointReward(c.checkpoints[i] ?? cp));
      const regrets = replay ? null : group.map((c) => c.checkpoints[i]?.cumulativeRegret ?? Number.NaN);
      return { round: cp.round, reward: band(rewards), regret: regrets === null ? null : band(regrets) };
    });
    out.push({
      setting: id,
      policy: first.config.policy,
      epsilon: first.config.epsilon,
      params: first.config.params,
      meanReward: seedStats(
        group.map((c) => c.meanReward),
        seeds,
      ),
      regret: replay
        ? null
        : seedStats(
            group.map((c) => c.regret ?? Number.NaN),
            seeds,
          ),
      epsilonSpent: group.some((c) => c.privacy === null)
        ? null
        : seedStats(
            group.map((c) => c.privacy?.epsilon ?? Number.NaN),
            seeds,
          ),
      ...noiseOf(group),
      curve,
      config: first.config,
    });
  }
  out.sort(
    (a, b) =>
      (a.policy < b.policy ? -1 : a.policy > b.policy ? 1 : 0) ||
      compareEps(a.epsilon, b.epsilon) ||
      (a.setting < b.setting ? -1 : a.setting > b.setting ? 1 : 0),
  );
  return out;
}

/** 'seeded' when any cell's noise was seeded, 'secure' when every cell's was secure, else nothing. */
function noiseOf(group: readonly CellResult[]): { noise?: 'secure' | 'seeded' } {
  if (group.some((c) => c.privacy?.noise === 'seeded')) return { noise: 'seeded' };
  if (group.length > 0 && group.every((c) => c.privacy?.noise === 'secure')) return { noise: 'secure' };
  return {};
}
