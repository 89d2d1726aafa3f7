// The "same guarantee, exact accounting" study (issue 24) end to end at the tiny synthetic scale and
// on a small generated MovieLens-format file, in this thread: both accountants on the same seeds,
// the sigma each used (from the ledgers), both ledgers within the budget, the claims scored by the
// direction rule, the document sections upserted (other text kept) and the chart drawn with both
// datasets' series.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pairedTTest } from '../../../../src/experiments/pairedTTest.js';
import { exactAccountingClaims } from '../../../../src/experiments/reproduce/exactAccounting/exactAccountingClaims.js';
import {
  type ExactAccountingRow,
  exactAccountingPolicies,
} from '../../../../src/experiments/reproduce/exactAccounting/exactAccountingRows.js';
import {
  exactAccountingConfig,
  reproduceExactAccounting,
} from '../../../../src/experiments/reproduce/exactAccounting/reproduceExactAccounting.js';
import { reproduceExactAccountingMovielens } from '../../../../src/experiments/reproduce/exactAccounting/reproduceExactAccountingMovielens.js';
import { seedStats } from '../../../../src/experiments/seedStats.js';
import { calibrateGaussianNoise } from '../../../../src/privacy/index.js';
import { createRng } from '../../../../src/random/index.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-exact-'));
const source = join(dir, 'ratings.csv');
after(() => rmSync(dir, { recursive: true, force: true }));

before(() => {
  // 40 users x 100 movies of a smooth rating rule with noise (MovieLens csv layout), dense enough
  // for the prior weight's validation part (users with >= 5 validation ratings)
  const rng = createRng(7, 'data');
  const lines = ['userId,movieId,rating,timestamp'];
  for (let u = 1; u <= 40; u++) {
    const a = rng.normal();
    for (let m = 1; m <= 100; m++) {
      if (rng.uniform() > 0.9) continue;
      const r = Math.min(5, Math.max(0.5, Math.round((3 + a * Math.sin(m) + 0.5 * rng.normal()) * 2) / 2));
      lines.push(`${u},${m},${r.toFixed(1)},${u * 1000 + m}`);
    }
  }
  writeFileSync(source, `${lines.join('\n')}\n`);
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'REPRODUCTION.md'), '# Reproduction\n\nkept synthetic text\n');
  writeFileSync(join(dir, 'docs', 'REPRODUCTION-movielens.md'), '## Real data: movielens\n\nkept ml text\n');
});

const exactSigma = (eps: number) =>
  calibrateGaussianNoise({ epsilon: eps, delta: 1e-5 }, { sensitivity: 1, compositions: 1, q: 1 }, 'exact')
    .sigma;

describe('exact accounting study', () => {
  test('the config pairs every accountant-calibrated policy with its exact twin', () => {
    const c = exactAccountingConfig('full');
    const ids = exactAccountingPolicies();
    assert.ok(ids.includes('adaprivate-ts') && ids.includes('dgs-linucb'));
    assert.ok(!ids.includes('jdp-linucb' as never), 'JDP-LinUCB has no accountant option');
    assert.equal(c.policies.length, 2 * ids.length);
    assert.deepEqual(c.seeds, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    assert.equal(c.horizon, 10_000);
    assert.throws(() => exactAccountingConfig('tiny', 1), /seeds must be an integer >= 2. Got 1/);
  });

  test('synthetic (tiny): sigmas from the ledgers, both within the budget, doc and chart', async () => {
    const docPath = join(dir, 'docs', 'REPRODUCTION.md');
    const r = await reproduceExactAccounting({
      scale: 'tiny',
      outDir: join(dir, 'out'),
      inProcess: true,
      docPath,
    });
    assert.equal(r.rows.length, exactAccountingPolicies().length * 2, 'every policy at eps 1 and 5');
    for (const row of r.rows) {
      assert.deepEqual(row.gap.seeds, [1, 2], 'paired over the same seeds');
      assert.ok(row.sigmaPaper !== null && row.sigmaExact !== null);
      assert.ok(row.sigmaExact < row.sigmaPaper, `${row.policy} eps ${row.epsilon}: exact adds less noise`);
      assert.ok(row.spentPaper! <= row.epsilon + 1e-9 && row.spentExact! <= row.epsilon + 1e-9);
    }
    const ts1 = r.rows.find((x) => x.policy === 'adaprivate-ts' && x.epsilon === 1)!;
    assert.ok(Math.abs(ts1.sigmaPaper! - 4.9006) < 1e-3, `zCDP sigma ${ts1.sigmaPaper}`);
    assert.ok(Math.abs(ts1.sigmaExact! - exactSigma(1)) < 1e-3 * exactSigma(1), `${ts1.sigmaExact}`);
    const amp = r.rows.find((x) => x.policy === 'adaprivate-ts-amp' && x.epsilon === 1)!;
    assert.equal(amp.paperAccountant, 'rdp');
    assert.ok(Math.abs(amp.sigmaExact! - 1.942) < 2e-3, `Amp exact multiplier ${amp.sigmaExact}`);
    // T = 200 < B = 300: the batched policies release nothing, so both accountants give the same
    // rewards; DGS-LinUCB releases every round, so its runs differ
    assert.equal(ts1.difference.mean, 0);
    const dgs = r.rows.find((x) => x.policy === 'dgs-linucb' && x.epsilon === 1)!;
    assert.notDeepEqual(dgs.exact.perSeed, dgs.paper.perSeed);
    assert.deepEqual(
      r.claims.map((c) => c.id),
      ['exact-ts-synthetic', 'exact-all-synthetic'],
    );
    const md = readFileSync(docPath, 'utf8');
    assert.match(md, /kept synthetic text/);
    assert.match(md, /<!-- section:exact-accounting-synthetic:start -->/);
    assert.match(md, /## Same guarantee, exact accounting: synthetic \(tiny run: indicative only\)/);
    assert.match(md, /\*\*Bottom line\.\*\*/);
    assert.match(md, /adaprivate reproduce exact --tiny/);
    assert.match(md, /img\/reproduction\/claim-exact-accounting\.svg/);
    assert.ok(existsSync(join(dir, 'docs', 'img', 'reproduction', 'claim-exact-accounting.svg')));
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'));
    assert.deepEqual(results.seeds, [1, 2]);
    assert.equal(results.experiment.cells.length, 2 * 2 * 2 * exactAccountingPolicies().length);
  });

  test('MovieLens (small file): prior weight per noise, rows, section and a chart with both datasets', async () => {
    const docPath = join(dir, 'docs', 'REPRODUCTION-movielens.md');
    const r = await reproduceExactAccountingMovielens({
      source,
      format: 'movielens-csv',
      outDir: join(dir, 'ml-out'),
      quick: true,
      horizon: 3000,
      rank: 3,
      inProcess: true,
      docPath,
    });
    assert.deepEqual(
      r.rows.map((x) => `${x.policy}@${x.epsilon}`),
      ['adaprivate-ts@1', 'adaprivate-ts@5', 'adaprivate-ucb@1', 'adaprivate-ucb@5'],
    );
    for (const row of r.rows) {
      assert.ok(row.sigmaExact! < row.sigmaPaper!);
      assert.ok(row.paper.mean > 0 && row.paper.mean < 1, 'a CTR');
    }
    const results = JSON.parse(readFileSync(join(dir, 'ml-out', 'results.json'), 'utf8'));
    assert.deepEqual(
      results.weights.map((w: { eps: number }) => w.eps),
      [1, 5],
    );
    assert.ok(Math.abs(results.weights[0].sigma - exactSigma(1)) < 1e-3 * exactSigma(1));
    const md = readFileSync(docPath, 'utf8');
    assert.match(md, /kept ml text/);
    assert.match(md, /<!-- section:exact-accounting-movielens:start -->/);
    assert.match(md, /Same guarantee, exact accounting: AdaPrivate-TS by epsilon \(MovieLens\)/);
    // the chart beside the documents now draws the synthetic section's series too
    const svg = readFileSync(join(dir, 'docs', 'img', 'reproduction', 'claim-exact-accounting.svg'), 'utf8');
    assert.match(svg, /synthetic \(expected reward\)/);
    assert.match(svg, /MovieLens replay \(CTR\)/);
    await assert.rejects(
      reproduceExactAccountingMovielens({
        source,
        format: 'movielens-csv',
        outDir: join(dir, 'x'),
        policies: ['jdp-linucb'],
      }),
      /policies must take the 'accountant' option \("jdp-linucb" does not\)/,
    );
  });

  test('claims: a gain whose CI is above 0 is reproduced, one below is opposite, else inconclusive', () => {
    const stats = (v: number[]) => seedStats(v, [1, 2, 3]);
    const row = (eps: number, gaps: number[]): ExactAccountingRow => ({
      policy: 'adaprivate-ts',
      epsilon: eps,
      paperAccountant: 'zcdp',
      paper: stats([0.5, 0.5, 0.5]),
      exact: stats([0.5, 0.5, 0.5]),
      gap: stats(gaps),
      difference: stats(gaps.map((g) => g / 200)),
      test: pairedTTest(stats([0.51, 0.5, 0.5]), stats([0.5, 0.5, 0.5])),
      sigmaPaper: 4.9,
      sigmaExact: 3.73,
      spentPaper: eps,
      spentExact: eps,
    });
    const [ts] = exactAccountingClaims(
      [row(1, [1, 1.1, 0.9]), row(2, [-1, -1.1, -0.9]), row(5, [-1, 1, 0.1])],
      'synthetic',
    );
    assert.deepEqual(
      ts!.parts.map((p) => p.verdict),
      ['reproduced', 'opposite', 'inconclusive'],
    );
    assert.match(ts!.parts[0]!.ours, /^\+1\.0% \[\+0\.8%, \+1\.2%\] \(sigma 4\.90 -> 3\.73\)$/);
  });
});
