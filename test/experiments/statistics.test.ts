// Reference values from scipy 1.x (independent tool). Generator (run with python3):
//   from scipy import stats; import numpy as np
//   a=[0.81,0.79,0.84,0.80,0.83,0.78]; b=[0.80,0.77,0.82,0.80,0.80,0.77]
//   r=stats.ttest_rel(a,b); print(r.statistic, r.pvalue); ci=r.confidence_interval(0.95); print(ci.low, ci.high)
//   print(stats.ttest_rel([1,2,3,5],[1,1,2,3]))
//   a3=[3.1,2.9,3.3,3.0,3.2,2.8,3.05,3.15,2.95,3.25,3.1,3.0]; b3=[3.0,2.95,3.1,3.05,3.0,2.9,3.0,3.1,2.9,3.05,3.2,2.95]
//   print(stats.ttest_rel(a3,b3))
//   x=np.array([0.5,0.7,0.65,0.55,0.6]); m=x.mean(); s=x.std(ddof=1); h=stats.t.ppf(0.975,4)*s/np.sqrt(5); print(m,s,m-h,m+h)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pairedTTest } from '../../src/experiments/pairedTTest.js';
import { seedStats } from '../../src/experiments/seedStats.js';

function close(got: number, expected: number, rel: number, what: string) {
  const tol = rel * Math.max(1, Math.abs(expected));
  assert.ok(Math.abs(got - expected) <= tol, `${what}: expected ${expected}, got ${got}, tolerance ${tol}`);
}

const seeds = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

test('pairedTTest matches scipy.stats.ttest_rel (n = 6)', () => {
  const a = [0.81, 0.79, 0.84, 0.8, 0.83, 0.78];
  const b = [0.8, 0.77, 0.82, 0.8, 0.8, 0.77];
  const r = pairedTTest({ seeds: seeds(6), perSeed: a }, { seeds: seeds(6), perSeed: b });
  assert.equal(r.n, 6);
  assert.equal(r.df, 5);
  close(r.t, 3.5032452487268593, 1e-9, 't');
  close(r.pValue, 0.017224549680341265, 1e-7, 'p');
  close(r.ci95[0], 0.003993426152919885, 1e-7, 'ci low');
  close(r.ci95[1], 0.026006573847080106, 1e-7, 'ci high');
});

test('pairedTTest matches scipy on two more samples, and is antisymmetric', () => {
  const r = pairedTTest(
    { seeds: seeds(4), perSeed: [1, 2, 3, 5] },
    { seeds: seeds(4), perSeed: [1, 1, 2, 3] },
  );
  close(r.t, 2.449489742783178, 1e-9, 't');
  close(r.pValue, 0.09172111331157186, 1e-7, 'p');
  const a3 = [3.1, 2.9, 3.3, 3.0, 3.2, 2.8, 3.05, 3.15, 2.95, 3.25, 3.1, 3.0];
  const b3 = [3.0, 2.95, 3.1, 3.05, 3.0, 2.9, 3.0, 3.1, 2.9, 3.05, 3.2, 2.95];
  const r3 = pairedTTest({ seeds: seeds(12), perSeed: a3 }, { seeds: seeds(12), perSeed: b3 });
  close(r3.t, 1.5634719199411418, 1e-9, 't');
  close(r3.pValue, 0.1462352914960902, 1e-7, 'p');
  const rev = pairedTTest({ seeds: seeds(12), perSeed: b3 }, { seeds: seeds(12), perSeed: a3 });
  close(rev.t, -r3.t, 1e-12, 't reversed');
  close(rev.pValue, r3.pValue, 1e-12, 'p reversed');
});

test('pairedTTest pairs by seed, not by position, and uses common seeds only', () => {
  const a = new Map([
    [3, 1],
    [1, 2],
    [2, 3],
    [4, 5],
    [9, 100],
  ]);
  const b = new Map([
    [2, 2],
    [1, 1],
    [3, 0],
    [4, 3],
  ]);
  const r = pairedTTest(a, b);
  assert.deepEqual(r.seeds, [1, 2, 3, 4]);
  // differences by seed 1..4: 1, 1, 1, 2 -> mean 1.25, sd 0.5, t = 1.25 / (0.5 / 2) = 5
  // (pairing by insertion order would give -1, 1, 3, 2 and t ~ 1.41)
  close(r.meanDifference, 1.25, 1e-12, 'mean difference');
  close(r.t, 5, 1e-9, 't');
});

test('pairedTTest degenerate cases: fewer than two seeds, zero-variance differences', () => {
  const one = pairedTTest({ seeds: [1], perSeed: [1] }, { seeds: [1], perSeed: [0] });
  assert.ok(Number.isNaN(one.pValue));
  const same = pairedTTest({ seeds: [1, 2], perSeed: [1, 2] }, { seeds: [1, 2], perSeed: [1, 2] });
  assert.ok(Number.isNaN(same.pValue));
  const shift = pairedTTest({ seeds: [1, 2], perSeed: [2, 3] }, { seeds: [1, 2], perSeed: [1, 2] });
  assert.equal(shift.pValue, 0);
  assert.equal(shift.t, Number.POSITIVE_INFINITY);
});

test('seedStats: mean, sample std and Student-t 95% CI match scipy', () => {
  const s = seedStats([0.5, 0.7, 0.65, 0.55, 0.6], seeds(5));
  close(s.mean, 0.6, 1e-12, 'mean');
  close(s.std, 0.07905694150420947, 1e-12, 'std');
  close(s.ci95[0], 0.5018378419261222, 1e-9, 'ci low');
  close(s.ci95[1], 0.6981621580738779, 1e-9, 'ci high');
  const t = seedStats([1, 2, 3], seeds(3));
  close(t.ci95[1] - 2, 4.302652729749462 / Math.sqrt(3), 1e-9, 't quantile 0.975, 2 dof');
  const single = seedStats([0.4], [7]);
  assert.deepEqual([single.std, ...single.ci95], [0, 0.4, 0.4]);
  assert.throws(() => seedStats([], []), /must not be empty/);
});
