import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { groupBudgets } from '../../../src/experiments/reproduce/syntheticPlan.js';
import {
  atLeastVerdict,
  atMostVerdict,
  choiceVerdict,
  combineVerdicts,
  countsText,
  countVerdicts,
  levelVerdict,
  matchVerdict,
  minimumDetectableEffect,
  positiveVerdict,
  rangeVerdict,
  seedsForHalfWidth,
  significanceVerdict,
  signVerdict,
  verdictSummary,
} from '../../../src/experiments/reproduce/verdict.js';

test('rangeVerdict: one case for each word', () => {
  // reproduced: the CI meets the paper's range and excludes 0
  assert.equal(rangeVerdict({ mean: 1.1, lo: 0.4, hi: 1.8 }, [0.5, 1.5]), 'reproduced');
  // not reproduced: same sign but far from the paper's figure (never "partly")
  assert.equal(rangeVerdict({ mean: 5, lo: 4, hi: 6 }, [0.5, 1.5]), 'not reproduced');
  // not reproduced: a precise zero where the paper reports +1.5
  assert.equal(rangeVerdict({ mean: 0, lo: -0.3, hi: 0.3 }, [1.5, 1.5]), 'not reproduced');
  // opposite: significant with the other sign
  assert.equal(rangeVerdict({ mean: -1, lo: -2, hi: -0.6 }, [0.5, 1.5]), 'opposite');
  // inconclusive: the CI contains both 0 and the paper's value
  assert.equal(rangeVerdict({ mean: 0, lo: -1.2, hi: 1.1 }, [0.5, 1.5]), 'inconclusive');
  // mixed: parts disagree
  assert.equal(combineVerdicts(['reproduced', 'opposite']), 'mixed');
  assert.equal(rangeVerdict({ mean: Number.NaN, lo: 0, hi: 1 }, [0.5, 1.5]), 'not tested');
  // the tolerance widens the CI for 'reproduced'
  assert.equal(rangeVerdict({ mean: 2.2, lo: 1.9, hi: 2.5 }, [0.5, 1.5]), 'reproduced');
  assert.equal(rangeVerdict({ mean: 2.2, lo: 1.9, hi: 2.5 }, [0.5, 1.5], 0), 'not reproduced');
});

test('rangeVerdict: eps = 0.1 TS vs UCB, CI [-0.1%, 0.0%] against +0.5% to +1.5%, is not reproduced', () => {
  // the CI contains 0 but excludes the paper's range; only the old widened CI (by 0.5) reached it
  const eps01 = { mean: -0.05, lo: -0.1, hi: 0.0, n: 12 };
  assert.equal(rangeVerdict(eps01, [0.5, 1.5]), 'not reproduced');
  // whatever the tolerance: 'inconclusive' never uses it
  assert.equal(rangeVerdict(eps01, [0.5, 1.5], 5), 'not reproduced');
  // a CI that reaches the paper's range and contains 0 is inconclusive
  assert.equal(rangeVerdict({ mean: 0.2, lo: -0.1, hi: 0.5 }, [0.5, 1.5]), 'inconclusive');
  assert.equal(rangeVerdict({ mean: 0.2, lo: -0.1, hi: 0.49 }, [0.5, 1.5]), 'not reproduced');
  // a significant effect of the other sign is opposite even when the widened CI would reach the paper
  assert.equal(rangeVerdict({ mean: -0.2, lo: -0.3, hi: -0.1 }, [0.2, 1]), 'opposite');
});

test('significanceVerdict: significant either way, not significant near or far from the paper', () => {
  assert.equal(significanceVerdict(0.003, { mean: 1.2, lo: 0.6, hi: 1.8 }, 0.01, [0.5, 1.5]), 'reproduced');
  assert.equal(significanceVerdict(0.003, { mean: -1.2, lo: -1.8, hi: -0.6 }, 0.01, [0.5, 1.5]), 'opposite');
  assert.equal(significanceVerdict(0.4, { mean: 0.2, lo: -0.8, hi: 1.2 }, 0.01, [0.5, 1.5]), 'inconclusive');
  assert.equal(
    significanceVerdict(0.4, { mean: -0.05, lo: -0.1, hi: 0 }, 0.01, [0.5, 1.5]),
    'not reproduced',
  );
  assert.equal(significanceVerdict(Number.NaN, { mean: 0, lo: 0, hi: 0 }, 0.01, [0.5, 1.5]), 'not tested');
});

test('at-most, sign, choice and match rules', () => {
  assert.equal(atMostVerdict(0.8, 0.4, 0.5), 'reproduced');
  assert.equal(atMostVerdict(0.95, 0.4, 0.5), 'not reproduced');
  assert.equal(atMostVerdict(0.5, 0.5, 0, true), 'not reproduced');
  assert.equal(atMostVerdict(0.5, 0.5), 'reproduced');
  assert.equal(atMostVerdict(Number.NaN, 0.5), 'not tested');
  assert.equal(signVerdict(0.1), 'reproduced');
  assert.equal(signVerdict(0), 'not reproduced');
  assert.equal(signVerdict(Number.NaN), 'not tested');
  assert.equal(choiceVerdict(0.3, [0.3], [0.1, 0.3]), 'reproduced');
  assert.equal(choiceVerdict(0.5, [0.3], [0.1, 0.3, 0.5], [0.3, 0.5]), 'inconclusive');
  assert.equal(choiceVerdict(0.5, [0.3], [0.1, 0.3, 0.5], [0.5]), 'not reproduced');
  assert.equal(choiceVerdict(100, [300], [50, 100]), 'not tested');
  assert.equal(matchVerdict(0.4496, 0.45, 5e-4, 0.005), 'reproduced');
  assert.equal(matchVerdict(0.44, 0.45, 5e-4, 0.005), 'not reproduced');
  assert.equal(matchVerdict(16, 16), 'reproduced');
});

test('rangeVerdict: a CI that also contains 0 is inconclusive for a non-zero paper effect', () => {
  assert.equal(rangeVerdict({ mean: 0, lo: -9.2, hi: 9.3 }, [1.5, 1.5]), 'inconclusive');
  assert.equal(rangeVerdict({ mean: 0.2, lo: -0.1, hi: 0.5 }, [0.5, 1.5]), 'inconclusive');
  // the paper's range includes 0: a CI around 0 reproduces it
  assert.equal(rangeVerdict({ mean: 0, lo: -1, hi: 1 }, [-0.5, 0.5]), 'reproduced');
  assert.equal(combineVerdicts(['inconclusive', 'inconclusive', 'not tested']), 'inconclusive');
  assert.equal(combineVerdicts(['inconclusive', 'reproduced']), 'mixed');
});

test('atLeastVerdict and combineVerdicts', () => {
  assert.equal(atLeastVerdict([95.1, 96.2], 94.1), 'reproduced');
  assert.equal(atLeastVerdict([93.2, 96.2], 94.1), 'reproduced');
  assert.equal(atLeastVerdict([91, 96.2], 94.1), 'not reproduced');
  assert.equal(atLeastVerdict([80, 96.2], 94.1), 'not reproduced');
  assert.equal(combineVerdicts(['reproduced', 'not tested']), 'reproduced');
  assert.equal(combineVerdicts(['reproduced', 'not reproduced']), 'mixed');
  assert.equal(combineVerdicts(['opposite', 'opposite', 'not tested']), 'opposite');
  assert.equal(combineVerdicts(['not reproduced', 'not reproduced']), 'not reproduced');
  assert.equal(combineVerdicts(['not tested']), 'not tested');
});

test('a CI containing the paper value is reproduced, or inconclusive exactly when it also contains 0', () => {
  fc.assert(
    fc.property(
      fc.double({ min: -50, max: 50, noNaN: true }),
      fc.double({ min: 0, max: 10, noNaN: true }),
      (m, h) => {
        const v = rangeVerdict({ mean: m, lo: m - h, hi: m + h }, [m, m]);
        const hasZero = m - h <= 0 && m + h >= 0 && m !== 0;
        return v === (hasZero ? 'inconclusive' : 'reproduced');
      },
    ),
  );
});

test('group budgets: the paper figures at user-level eps = 5, delta = 1e-5', () => {
  const b = groupBudgets(5, 1e-5, [1, 5, 10]);
  assert.ok(Math.abs(b[0]!.recordRho - 0.4496) < 1e-3, String(b[0]!.recordRho));
  assert.ok(Math.abs(b[1]!.recordRho - 0.018) < 1e-3);
  assert.ok(Math.abs(b[2]!.recordRho - 0.0045) < 1e-4);
  assert.ok(Math.abs(b[0]!.epsilon - 5) < 1e-6);
});

test('levelVerdict: the one rule with the no-learning level as the null', () => {
  // the old rule said 'reproduced' from the mean alone for the MovieLens --quick figure: 71.2 [61.5, 81.0]
  // spans the paper's range and the greedy prior's 70.7: inconclusive now
  assert.equal(levelVerdict({ mean: 71.2, lo: 61.5, hi: 81 }, [71.7, 72.6], 70.7), 'inconclusive');
  // the same as rangeVerdict with that null, for every case
  for (const e of [
    { mean: 72, lo: 71.5, hi: 72.5 },
    { mean: 70.4, lo: 70, hi: 70.8 },
    { mean: 59.7, lo: 54.7, hi: 64.7 },
    { mean: 71.2, lo: 61.5, hi: 81 },
  ])
    assert.equal(levelVerdict(e, [71.7, 72.6], 70.7), rangeVerdict(e, [71.7, 72.6], 0.5, 70.7));
  // a precise level in the range, clear of the null: reproduced
  assert.equal(levelVerdict({ mean: 72, lo: 71.5, hi: 72.5 }, [71.7, 72.6], 70.7), 'reproduced');
  // a CI around the null that does not reach the paper: not reproduced (full-scale MovieLens TS)
  assert.equal(levelVerdict({ mean: 70.4, lo: 70, hi: 70.8 }, [71.7, 72.6], 70.7), 'not reproduced');
  // below the no-learning level, significantly: opposite (learning made it worse than not learning)
  assert.equal(levelVerdict({ mean: 59.7, lo: 54.7, hi: 64.7 }, [71.7, 72.6], 70.7), 'opposite');
  // no known null: never reproduced
  assert.equal(levelVerdict({ mean: 72, lo: 71.5, hi: 72.5 }, [71.7, 72.6], undefined), 'inconclusive');
  assert.equal(levelVerdict({ mean: 60, lo: 59, hi: 61 }, [71.7, 72.6], undefined), 'not reproduced');
  assert.equal(levelVerdict({ mean: Number.NaN, lo: 0, hi: 1 }, [1, 2], 0.5), 'not tested');
});

test('no interval that spans both the paper figure and the null is reproduced, whatever the null', () => {
  fc.assert(
    fc.property(
      fc.double({ min: -100, max: 100, noNaN: true }),
      fc.double({ min: -100, max: 100, noNaN: true }),
      fc.double({ min: 0, max: 5, noNaN: true }),
      fc.double({ min: -100, max: 100, noNaN: true }),
      fc.double({ min: 0, max: 50, noNaN: true }),
      (a, w, nul, m, h) => {
        const paper: [number, number] = [Math.min(a, a + w), Math.max(a, a + w)];
        const e = { mean: m, lo: m - h, hi: m + h };
        const spans = e.lo <= paper[1] && e.hi >= paper[0] && e.lo <= nul && e.hi >= nul;
        const excludesNull = paper[0] > nul || paper[1] < nul;
        return !(spans && excludesNull) || rangeVerdict(e, paper, 0.5, nul) === 'inconclusive';
      },
    ),
  );
});

test('claims: never mixed without a reproduced part; the summary words list the counts', () => {
  const parts = [
    ...Array<'not reproduced'>(3).fill('not reproduced'),
    ...Array<'inconclusive'>(7).fill('inconclusive'),
  ];
  assert.equal(combineVerdicts(parts), 'not reproduced');
  assert.equal(verdictSummary(countVerdicts(parts)), 'not reproduced (3), inconclusive (7)');
  assert.equal(combineVerdicts(['not reproduced', 'opposite', 'opposite']), 'not reproduced');
  assert.equal(combineVerdicts(['opposite', 'not tested']), 'opposite');
  assert.equal(
    verdictSummary(countVerdicts(['opposite', 'not tested', 'not tested'])),
    'opposite (1), not tested (2)',
  );
  assert.equal(combineVerdicts(['reproduced', 'inconclusive']), 'mixed');
  assert.equal(
    verdictSummary(countVerdicts(['reproduced', 'reproduced', 'not reproduced'])),
    'mixed: reproduced (2), not reproduced (1)',
  );
  assert.equal(verdictSummary(countVerdicts(['reproduced', 'reproduced'])), 'reproduced (2)');
  assert.equal(verdictSummary(countVerdicts([])), 'not tested');
});

test('counts per verdict class, detectable effect and seeds for a target half-width', () => {
  const c = countVerdicts(['reproduced', 'not reproduced', 'not reproduced', 'not tested']);
  assert.equal(c.reproduced, 1);
  assert.equal(c['not reproduced'], 2);
  assert.equal(c.opposite, 0);
  assert.equal(countsText(c), '1 reproduced, 2 not reproduced, 1 not tested');
  // 12 seeds, 95% CI +-1.15: se = 1.15 / t(0.975, 11) = 0.5225; MDE = (2.201 + 0.876) x se = 1.608
  const mde = minimumDetectableEffect({ mean: 0, lo: -1.15, hi: 1.15, n: 12 });
  assert.ok(Math.abs(mde - 1.608) < 0.002, String(mde));
  assert.ok(Number.isNaN(minimumDetectableEffect({ mean: 0, lo: -1, hi: 1 })), 'unknown n');
  // sd 1.81 points -> about (1.96 x 1.81 / 0.5)^2 = 50 seeds, a little more with the t quantile
  const n = seedsForHalfWidth(1.81, 0.5);
  assert.ok(n >= 51 && n <= 54, String(n));
});

describe('positiveVerdict', () => {
  test('above 0: reproduced; below: opposite; containing 0: inconclusive; non-finite: not tested', () => {
    assert.equal(positiveVerdict({ mean: 2, lo: 0.5, hi: 3.5 }), 'reproduced');
    assert.equal(positiveVerdict({ mean: -2, lo: -3, hi: -0.1 }), 'opposite');
    assert.equal(positiveVerdict({ mean: 0.2, lo: -0.5, hi: 0.9 }), 'inconclusive');
    assert.equal(positiveVerdict({ mean: Number.NaN, lo: 0, hi: 1 }), 'not tested');
  });
});
