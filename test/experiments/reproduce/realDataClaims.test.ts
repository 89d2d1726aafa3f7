import assert from 'node:assert/strict';
import { test } from 'node:test';
import { realDataClaims } from '../../../src/experiments/reproduce/realData/realDataClaims.js';
import { seedStats } from '../../../src/experiments/seedStats.js';
import type { SettingSummary } from '../../../src/experiments/types.js';
import { policyIds, policyInfo } from '../../../src/policies/index.js';

const seeds = [1, 2, 3, 4];

/** A summary whose per-seed mean rewards are `base * (1 + jitter_s)`. */
function summary(policy: string, epsilon: number | null, base: number, params = {}): SettingSummary {
  const per = seeds.map((s) => base * (1 + 0.001 * (s - 2.5)));
  const stats = seedStats(per, seeds);
  return {
    setting: `${policy}|${epsilon}|${JSON.stringify(params)}`,
    policy,
    epsilon,
    params,
    meanReward: stats,
    regret: null,
    epsilonSpent: null,
    curve: [],
    config: {} as SettingSummary['config'],
  };
}

function run(tsOver: number, ampOver = 0) {
  const main: SettingSummary[] = [];
  for (const e of [1, 5]) {
    for (const p of policyIds) {
      if (!policyInfo(p).isPrivate) {
        if (e === 1) main.push(summary(p, null, 0.6));
        continue;
      }
      const base = p === 'adaprivate-ts' ? 0.5 * (1 + tsOver / 100) : 0.5;
      main.push(summary(p, e, p === 'adaprivate-ts-amp' ? base * (1 + (tsOver + ampOver) / 100) : base));
    }
  }
  return realDataClaims({ dataset: 'jester', epsilons: [1, 5], main, amp: [] });
}

test('Jester claims: TS ahead by ~3% reproduces the gaps and "TS best"; TS behind does not', () => {
  const good = run(3.2);
  assert.deepEqual(
    good.map((c) => c.verdict),
    ['reproduced', 'reproduced'],
  );
  assert.match(good[1]!.parts[0]!.ours, /^\+3\.2% \[/);
  // a TS variant (TS-Amp) on top: not AdaPrivate-TS itself, so not reproduced
  assert.equal(run(3.2, 1)[0]!.verdict, 'not reproduced');
  // TS 3% behind: not the best private method, and both gaps significant the other way
  const bad = run(-3);
  assert.deepEqual(
    bad.map((c) => c.verdict),
    ['not reproduced', 'opposite'],
  );
});

test('MovieLens claims: CTR range, amplification and eps = 10 parts are computed or marked not tested', () => {
  const main = policyIds.map((p) =>
    summary(p, policyInfo(p).isPrivate ? 1 : null, policyInfo(p).isPrivate ? 0.72 : 0.75),
  );
  const amp = [summary('adaprivate-ts', 1, 0.7), summary('adaprivate-ts-amp', 1, 0.7 * 1.046, { q: 0.3 })];
  const claims = realDataClaims({ dataset: 'movielens', epsilons: [1], main, amp, levelNull: 0.5618 });
  const byId = new Map(claims.map((c) => [c.id, c]));
  assert.equal(byId.get('ml-ctr')!.verdict, 'reproduced');
  // without the no-learning level the run cannot show it learned: never reproduced
  const noNull = realDataClaims({ dataset: 'movielens', epsilons: [1], main, amp });
  assert.equal(noNull[0]!.verdict, 'inconclusive');
  const ampParts = byId.get('ml-amp')!.parts;
  assert.equal(ampParts[0]!.verdict, 'reproduced');
  assert.equal(ampParts[1]!.verdict, 'not tested', 'eps = 5 is not in this run');
  assert.equal(byId.get('ml-ts-vs-adac')!.verdict, 'not tested');
  // CTR 60% is far below the paper's 71.7-72.6%
  const low = realDataClaims({
    dataset: 'movielens',
    epsilons: [1],
    main: policyIds.map((p) => summary(p, policyInfo(p).isPrivate ? 1 : null, 0.6)),
    amp,
    levelNull: 0.5618,
  });
  assert.equal(low[0]!.verdict, 'not reproduced');
});

test('MovieLens --quick: 71.2 [61.5, 81.0] spans the paper and the no-learning level: inconclusive, not reproduced', () => {
  // per-seed CTRs with mean 0.712 and a wide spread, like the quick run's 3 seeds
  const wide = (policy: string, epsilon: number | null): SettingSummary => {
    const stats = seedStats([0.62, 0.712, 0.804], [1, 2, 3]);
    return { ...summary(policy, epsilon, 0.712), meanReward: stats };
  };
  const main = policyIds.map((p) => wide(p, policyInfo(p).isPrivate ? 1 : null));
  const [ctr] = realDataClaims({ dataset: 'movielens', epsilons: [1], main, amp: [], levelNull: 0.706 });
  assert.ok(
    ctr!.parts.every((p) => p.verdict === 'inconclusive'),
    JSON.stringify(ctr!.parts),
  );
  assert.equal(ctr!.verdict, 'inconclusive');
  assert.match(ctr!.rule, /never reproduced, whatever its mean/);
});
