import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  ArmFeatureMap,
  prepareFeaturesFile,
  ratingsWarmStart,
  readFeaturesFile,
} from '../../src/data/index.js';
import { createRng } from '../../src/random/index.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-features-'));
const source = join(dir, 'ratings.csv');
after(() => rmSync(dir, { recursive: true, force: true }));

const USERS = 150;
const ITEMS = 40;
const BEST = 17; // the planted best item (largest bias)

before(() => {
  // planted low-rank-plus-bias ratings: 3.2 + b_i + 0.6 * <p_u, q_i> + noise, rank 2
  const rng = createRng(5, 'planted');
  const bi = Array.from({ length: ITEMS }, () => 0.5 * rng.normal());
  bi[BEST] = 2.5;
  const q = Array.from({ length: ITEMS }, () => [rng.normal(), rng.normal()]);
  const lines = ['userId,movieId,rating,timestamp'];
  for (let u = 0; u < USERS; u++) {
    const p = [rng.normal(), rng.normal()];
    for (let i = 0; i < ITEMS; i++) {
      // user 1 rates every item, so dense item index = movieId - 1 (first appearance)
      if (u > 0 && rng.uniform() < 0.3) continue;
      const raw = 2.5 + bi[i]! + 0.4 * (p[0]! * q[i]![0]! + p[1]! * q[i]![1]!) + 0.3 * rng.normal();
      const r = Math.min(5, Math.max(0.5, Math.round(raw * 2) / 2));
      lines.push(`${u + 1},${i + 1},${r.toFixed(1)},${u}`);
    }
  }
  writeFileSync(source, `${lines.join('\n')}\n`);
});

async function prepared(construction: 'biased' | 'unit-product') {
  const out = join(dir, `${construction}.bin`);
  await prepareFeaturesFile({ source, format: 'movielens-csv', out, params: { rank: 2, construction } });
  return { out, f: await readFeaturesFile(out) };
}

test('biased features of a planted low-rank-plus-bias matrix: the greedy prior ranks the best item first', async () => {
  const { out, f } = await prepared('biased');
  assert.equal(f.dim, 4);
  assert.equal(f.header.construction.kind, 'biased');
  const theta = ratingsWarmStart({ featuresFile: out, rewardMode: 'scaled' });
  const map = new ArmFeatureMap(f);
  const x = new Float64Array(f.dim);
  let firsts = 0;
  for (let u = 0; u < USERS; u++) {
    let best = -1;
    let top = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < ITEMS; i++) {
      assert.equal(map.write(u, i, x, 0), true);
      let n = 0;
      let s = 0;
      for (let c = 0; c < f.dim; c++) {
        n += x[c]! ** 2;
        s += x[c]! * theta[c]!;
      }
      assert.ok(n <= 1 + 1e-12, `||x|| = ${Math.sqrt(n)}`);
      if (s > top) {
        top = s;
        best = i;
      }
    }
    if (best === BEST) firsts++;
  }
  assert.ok(firsts >= 0.8 * USERS, `the planted best item is ranked first for ${firsts} of ${USERS} users`);
});

test('the unit-product construction (ablation) has unit-norm features and no bias direction', async () => {
  const { f } = await prepared('unit-product');
  assert.equal(f.dim, 2);
  const map = new ArmFeatureMap(f);
  const x = new Float64Array(2);
  assert.equal(map.write(0, 0, x, 0), true);
  assert.ok(Math.abs(x[0]! ** 2 + x[1]! ** 2 - 1) < 1e-12);
  assert.ok(f.itemBias.every((b) => b === 0));
});
