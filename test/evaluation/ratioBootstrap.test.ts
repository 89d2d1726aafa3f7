import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { percentileInterval, ratioBootstrap, sortedQuantile } from '../../src/evaluation/ratioBootstrap.js';
import { createRng } from '../../src/random/index.js';

describe('ratioBootstrap', () => {
  const rng = createRng(4, 'test');
  const data = Float64Array.from({ length: 400 }, () => (rng.uniform() < 0.3 ? 1 : 0));

  it('is deterministic for a seed, differs across seeds, and widens with the level', () => {
    const a = ratioBootstrap('ipw', data, null, 400, { resamples: 500, seed: 1 });
    const b = ratioBootstrap('ipw', data, null, 400, { resamples: 500, seed: 1 });
    const c = ratioBootstrap('ipw', data, null, 400, { resamples: 500, seed: 2 });
    assert.deepEqual(a.interval, b.interval);
    assert.notDeepEqual(a.replicates, c.replicates);
    const wide = ratioBootstrap('ipw', data, null, 400, { resamples: 500, seed: 1, level: 0.99 });
    assert.ok(wide.interval[0] < a.interval[0] && wide.interval[1] > a.interval[1]);
  });

  it('matches the normal-theory interval of a mean (half-width 1.96 sd / sqrt(n), within 15%)', () => {
    const e = ratioBootstrap('ipw', data, null, 400, { resamples: 2000, seed: 3 });
    const m = e.value;
    const sd = Math.sqrt((m * (1 - m)) / 400);
    const half = (e.interval[1] - e.interval[0]) / 2;
    assert.ok(Math.abs(half / (1.96 * sd) - 1) < 0.15, `bootstrap half-width ${half}, normal ${1.96 * sd}`);
  });

  it('refuses bad options with the rule', () => {
    assert.throws(
      () => ratioBootstrap('ipw', data, null, 1, { resamples: 0 }),
      /resamples must be a positive integer\. Got 0\./,
    );
    assert.throws(
      () => ratioBootstrap('ipw', data, null, 1, { level: 1 }),
      /level must be in \(0, 1\)\. Got 1\./,
    );
    assert.throws(
      () => ratioBootstrap('ipw', data, null, 1, { seed: -1 }),
      /seed must be a non-negative safe integer/,
    );
  });

  it('quantiles interpolate between order statistics; non-finite replicates are ignored', () => {
    assert.equal(sortedQuantile(Float64Array.of(1, 2, 3, 4), 0.5), 2.5);
    assert.deepEqual(percentileInterval(Float64Array.of(3, Number.NaN, 1, 2), 0.5), [1.5, 2.5]);
  });
});
