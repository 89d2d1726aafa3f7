// The bounds rule of the MovieLens user-level study: quantiles of an independent recount of the
// simulated arrivals, the edge cases, and that the bounds grow with the quantile.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contributionBoundsRule } from '../../../../src/experiments/reproduce/userLevel/contributionBoundsRule.js';

describe('contributionBoundsRule', () => {
  test('equal light users: one reward per release and as many releases as rewards', () => {
    // 10,000 users with 1 training rating each, 1,000 rewards in 10 releases: almost no user twice
    const b = contributionBoundsRule(new Int32Array(10_000).fill(1), {
      steps: 5000,
      armsPerRound: 5,
      batchSize: 100,
    });
    assert.equal(b.rewards, 1000);
    assert.equal(b.releases, 10);
    assert.equal(b.contributionsPerRelease, 1);
    assert.equal(b.releasesPerEpoch, 1);
    assert.ok(b.keptShare > 0.9, `kept ${b.keptShare}`);
  });

  test('one dominant user: c covers its per-release count at a high quantile, and it loses rewards at a low one', () => {
    const counts = Int32Array.of(1, 1, 1, 1, 96); // user 4: 96% of arrivals
    const hi = contributionBoundsRule(counts, { steps: 5000, armsPerRound: 5, batchSize: 100, quantile: 1 });
    assert.equal(hi.releasesPerEpoch, 10);
    assert.ok(hi.contributionsPerRelease >= 90, `c = ${hi.contributionsPerRelease}`);
    assert.equal(hi.keptShare, 1, 'quantile 1 keeps everything');
    const lo = contributionBoundsRule(counts, {
      steps: 5000,
      armsPerRound: 5,
      batchSize: 100,
      quantile: 0.5,
    });
    assert.ok(lo.contributionsPerRelease < hi.contributionsPerRelease);
    assert.ok(lo.keptShare < 0.5, `kept ${lo.keptShare}`);
  });

  test('the bounds never decrease with the quantile; the simulation is seeded', () => {
    const counts = Int32Array.from({ length: 200 }, (_, i) => 1 + ((i * 7919) % 97));
    const o = { steps: 20_000, armsPerRound: 5, batchSize: 100 };
    let last = { c: 0, m: 0 };
    for (const quantile of [0.25, 0.5, 0.75, 0.9, 1]) {
      const b = contributionBoundsRule(counts, { ...o, quantile });
      assert.ok(b.contributionsPerRelease >= last.c && b.releasesPerEpoch >= last.m);
      last = { c: b.contributionsPerRelease, m: b.releasesPerEpoch };
    }
    assert.deepEqual(contributionBoundsRule(counts, o), contributionBoundsRule(counts, o));
  });

  test('bad input is refused with the option named', () => {
    const o = { steps: 100, armsPerRound: 5, batchSize: 10 };
    assert.throws(() => contributionBoundsRule(Int32Array.of(0, 0), o), /no user has a training rating/);
    assert.throws(
      () => contributionBoundsRule(Int32Array.of(1), { ...o, quantile: 0 }),
      /quantile must be in \(0, 1\]/,
    );
    assert.throws(
      () => contributionBoundsRule(Int32Array.of(1), { ...o, batchSize: 0 }),
      /batchSize must be a positive integer/,
    );
  });
});
