import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baselineRmse, fitBaselineModel, tuneBaselineModel } from '../../src/data/index.js';
import { createRng } from '../../src/random/index.js';

/** Ratings mu + b_u + b_i + noise on a random 50% of a users x items grid. */
function planted(users: number, items: number, noise: number, seed: number) {
  const rng = createRng(seed, 'planted');
  const bu = Array.from({ length: users }, () => 0.5 * rng.normal());
  const bi = Array.from({ length: items }, () => 0.8 * rng.normal());
  const u: number[] = [];
  const i: number[] = [];
  const r: number[] = [];
  for (let a = 0; a < users; a++)
    for (let b = 0; b < items; b++) {
      if (rng.uniform() < 0.5) continue;
      u.push(a);
      i.push(b);
      r.push(3.5 + bu[a]! + bi[b]! + noise * rng.normal());
    }
  const data = {
    count: r.length,
    users: Int32Array.from(u),
    items: Int32Array.from(i),
    ratings: Float32Array.from(r),
    userIds: Int32Array.from({ length: users }, (_, k) => k + 1),
    itemIds: Int32Array.from({ length: items }, (_, k) => k + 1),
  };
  return { data, bu, bi };
}

function corr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let k = 0; k < n; k++) {
    ma += a[k]! / n;
    mb += b[k]! / n;
  }
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let k = 0; k < n; k++) {
    sab += (a[k]! - ma) * (b[k]! - mb);
    saa += (a[k]! - ma) ** 2;
    sbb += (b[k]! - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

test('the baseline model recovers planted global mean, user and item biases', () => {
  const { data, bu, bi } = planted(200, 100, 0.3, 1);
  const m = fitBaselineModel(data, () => true, 1);
  // the planted biases are not centred, so compare the predictions mu + b_u + b_i and correlations
  const meanBu = bu.reduce((s, x) => s + x, 0) / bu.length;
  const meanBi = bi.reduce((s, x) => s + x, 0) / bi.length;
  assert.ok(Math.abs(m.mu - (3.5 + meanBu + meanBi)) < 0.1, `mu ${m.mu}`);
  assert.ok(corr(m.userBias, bu) > 0.97, `user bias correlation ${corr(m.userBias, bu)}`);
  assert.ok(corr(m.itemBias, bi) > 0.99, `item bias correlation ${corr(m.itemBias, bi)}`);
  for (let k = 0; k < 50; k++) {
    const pred = m.mu + m.userBias[data.users[k]!]! + m.itemBias[data.items[k]!]!;
    const truth = 3.5 + bu[data.users[k]!]! + bi[data.items[k]!]!;
    assert.ok(Math.abs(pred - truth) < 0.25, `rating ${k}: ${pred} vs ${truth}`);
  }
  // the residual RMSE is the planted noise
  const rmse = baselineRmse(m, data, () => true);
  assert.ok(rmse > 0.25 && rmse < 0.32, `rmse ${rmse}`);
  assert.throws(() => fitBaselineModel(data, () => true, -1), /lambda must be a finite number >= 0\. Got -1/);
});

test('the shrinkage is chosen on the validation part: more noise, more shrinkage', () => {
  const pick = (noise: number) => {
    const { data } = planted(60, 40, noise, 2);
    const fit = (k: number) => k % 5 !== 0;
    const val = (k: number) => k % 5 === 0;
    return tuneBaselineModel(data, fit, val);
  };
  const quiet = pick(0.05);
  const loud = pick(3);
  assert.equal(quiet.table.length, 8);
  const best = quiet.table.reduce((a, b) => (b.rmse < a.rmse ? b : a));
  assert.equal(quiet.model.lambda, best.lambda);
  assert.ok(loud.model.lambda > quiet.model.lambda, `${loud.model.lambda} vs ${quiet.model.lambda}`);
});
