import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  createRatingsEnvironment,
  createReplayStream,
  PRIOR_WEIGHT_GRID,
  prepareFeaturesFile,
  ratingsWarmStart,
  readFeaturesFile,
} from '../../src/data/index.js';
import { runCell } from '../../src/experiments/runCell.js';
import type { CellConfig } from '../../src/experiments/types.js';
import { createRng } from '../../src/random/index.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-env-'));
const source = join(dir, 'ratings.csv');
const featuresFile = join(dir, 'f.bin');
after(() => rmSync(dir, { recursive: true, force: true }));

before(async () => {
  // 40 users x 30 movies, low-rank taste plus noise, 60% of pairs rated
  const rng = createRng(11, 'data');
  const lines = ['userId,movieId,rating,timestamp'];
  for (let u = 1; u <= 40; u++) {
    const a = rng.normal();
    for (let m = 1; m <= 30; m++) {
      if (rng.uniform() > 0.6) continue;
      const r = Math.min(5, Math.max(0.5, Math.round((3 + a * Math.sin(m) + 0.5 * rng.normal()) * 2) / 2));
      lines.push(`${u},${m * 10},${r.toFixed(1)},${u * 1000 + m}`);
    }
  }
  writeFileSync(source, `${lines.join('\r\n')}\r\n`);
  await prepareFeaturesFile({
    source,
    format: 'movielens-csv',
    out: featuresFile,
    params: { rank: 4, validationFraction: 0.5 },
  });
});

describe('features file and real-data environments', () => {
  it('records the source checksum and parameters, and reuses a matching file', async () => {
    const f = await readFeaturesFile(featuresFile);
    assert.match(f.header.source.sha256, /^[0-9a-f]{64}$/);
    assert.equal(f.header.params.rank, 4);
    const c = f.header.counts;
    assert.ok(c.validation > 0, 'a validation part is kept aside');
    // fit part + validation part (some dropped for lack of a fit rating) + bandit part
    assert.ok(c.train + c.validation + c.eval + c.evalDropped <= c.ratings);
    assert.ok(c.train + c.eval + c.evalDropped < c.ratings);
    const again = await prepareFeaturesFile({
      source,
      format: 'movielens-csv',
      out: featuresFile,
      params: { rank: 4, validationFraction: 0.5 },
    });
    assert.equal(again.reused, true);
    const other = await prepareFeaturesFile({
      source,
      format: 'movielens-csv',
      out: join(dir, 'g.bin'),
      params: { rank: 3 },
    });
    assert.equal(other.reused, false);
    assert.equal(other.header.params.rank, 3);
  });

  it('full information: biased features of norm <= 1 with a constant, known 0/1 rewards, same rounds', () => {
    const a = createRatingsEnvironment({ featuresFile, armsPerRound: 3 }, 5);
    const b = createRatingsEnvironment({ featuresFile, armsPerRound: 3 }, 5);
    assert.equal(a.dim, 6, 'rank 4 + item bias + constant');
    const d = 6;
    const xa = new Float64Array(3 * d);
    const xb = new Float64Array(3 * d);
    const ea = new Float64Array(3);
    const eb = new Float64Array(3);
    for (let t = 0; t < 200; t++) {
      a.nextRound(xa, ea);
      b.nextRound(xb, eb);
      assert.deepEqual(xa, xb);
      assert.deepEqual(ea, eb);
      for (let k = 0; k < 3; k++) {
        let n = 0;
        for (let c = 0; c < d; c++) n += xa[k * d + c]! ** 2;
        assert.ok(n <= 1 + 1e-12, `feature norm ${Math.sqrt(n)} <= 1`);
        assert.ok(Math.abs(xa[k * d + d - 1]! - 1 / Math.sqrt(3)) < 1e-15, 'constant direction');
        assert.ok(ea[k] === 0 || ea[k] === 1);
        assert.equal(a.reward(k), ea[k]);
      }
    }
  });

  it('scaled rewards lie in [0, 1]; bad options are refused with the option named', () => {
    const env = createRatingsEnvironment({ featuresFile, rewardMode: 'scaled' }, 1);
    const x = new Float64Array(5 * env.dim);
    const e = new Float64Array(5);
    env.nextRound(x, e);
    for (const v of e) assert.ok(v >= 0 && v <= 1);
    assert.throws(
      () => createRatingsEnvironment({ featuresFile, armsPerRound: 1 }, 1),
      /armsPerRound must be an integer >= 2\. Got 1/,
    );
    assert.throws(
      () => createRatingsEnvironment({ featuresFile, rewardThreshold: 9 }, 1),
      /rewardThreshold must be a number in \[0\.5, 5\]\. Got 9/,
    );
    assert.throws(() => createRatingsEnvironment({ featuresFile: join(dir, 'none') }, 1), /does not exist/);
    assert.throws(
      () => createRatingsEnvironment({ featuresFile, armsPerRound: 500 }, 1),
      /no user .* has armsPerRound = 500/,
    );
  });

  it('replay: logged arms are uniform and the estimator of a fixed policy is unbiased', () => {
    // policy "always arm 0": its true value is the mean reward of a uniformly drawn candidate
    const k = 4;
    const truth = createRatingsEnvironment({ featuresFile, armsPerRound: k }, 3);
    const x = new Float64Array(k * truth.dim);
    const e = new Float64Array(k);
    let value = 0;
    const n = 40000;
    for (let t = 0; t < n; t++) {
      truth.nextRound(x, e);
      value += e[0]!;
    }
    value /= n;
    const log = createReplayStream({ featuresFile, armsPerRound: k, horizon: n }, 3);
    assert.equal(log.length, n);
    let effective = 0;
    let sum = 0;
    const counts = new Array<number>(k).fill(0);
    for (let t = 0; t < log.length; t++) {
      const arm = log.nextStep(x);
      counts[arm]!++;
      if (arm === 0) {
        effective++;
        sum += log.loggedReward();
      }
    }
    const estimate = sum / effective;
    const se = Math.sqrt((value * (1 - value)) / effective);
    assert.ok(
      Math.abs(estimate - value) < 4 * se,
      `replay estimate ${estimate} vs true value ${value} (4 se = ${4 * se})`,
    );
    for (const c of counts) assert.ok(Math.abs(c / n - 1 / k) < 0.02, `logged arm frequencies ${counts}`);
    assert.ok(Math.abs(effective / n - 1 / k) < 0.02, 'about length / K effective steps');
  });

  it('warm start: solves the ridge normal equations of the training split, per reward threshold', async () => {
    const a = ratingsWarmStart({ featuresFile });
    const b = ratingsWarmStart({ featuresFile, rewardThreshold: 3 });
    assert.equal(a.length, 6);
    assert.ok(a.every(Number.isFinite));
    assert.notDeepEqual(Array.from(a), Array.from(b));
    // (I + G) theta_0 = sum over training ratings >= 4 of x (ridge 1, MovieLens threshold 4)
    const f = await readFeaturesFile(featuresFile);
    const d = f.dim;
    const rhs = new Float64Array(d);
    for (let i = 0; i < f.levels.length; i++)
      if (f.levels[i]! >= 4) for (let c = 0; c < d; c++) rhs[c]! += f.bLevels[i * d + c]!;
    assert.ok(rhs.some((v) => v !== 0));
    for (let i = 0; i < d; i++) {
      let lhs = a[i]!;
      for (let j = 0; j < d; j++) lhs += f.gram[i * d + j]! * a[j]!;
      assert.ok(Math.abs(lhs - rhs[i]!) < 1e-9 * (1 + Math.abs(rhs[i]!)), `row ${i}: ${lhs} vs ${rhs[i]}`);
    }
  });

  it('the runner starts every policy from theta_0 with warmStart; default cold', () => {
    const cell = (warmStart: boolean | undefined): CellConfig => ({
      env: {
        kind: 'ratings',
        options: {
          featuresFile,
          armsPerRound: 3,
          horizon: 60,
          ...(warmStart === undefined ? {} : { warmStart }),
        },
      },
      protocol: 'replay',
      policy: 'adaprivate-ts',
      epsilon: 1,
      delta: 1e-5,
      params: {},
      horizon: 60,
      seed: 1,
      checkpointEvery: 60,
    });
    const theta0 = Array.from(ratingsWarmStart({ featuresFile }));
    const warm = runCell(cell(true));
    assert.deepEqual(warm.policyConfig.priorMean, theta0);
    assert.equal(warm.environment.warmStart, true);
    const cold = runCell(cell(undefined));
    assert.deepEqual(cold.policyConfig.priorMean, [0, 0, 0, 0, 0, 0]);
    // the prior weight is tuned on the validation part (a weight of the grid), passed as lambda
    assert.ok(PRIOR_WEIGHT_GRID.includes(warm.policyConfig.lambda as number));
    assert.equal(cold.policyConfig.lambda, 1);
    const base = cell(true);
    const options = (base.env as { options: Record<string, unknown> }).options;
    const fixed = runCell({ ...base, env: { kind: 'ratings', options: { ...options, priorWeight: 42 } } });
    assert.equal(fixed.policyConfig.lambda, 42);
    assert.notEqual(warm.key, cold.key, 'warm and cold cells are cached apart');
    assert.notDeepEqual(warm.checkpoints, cold.checkpoints, 'the prior changes the run');
  });
});
