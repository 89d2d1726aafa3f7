import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { reproduceSynthetic } from '../../../src/experiments/reproduce/reproduceSynthetic.js';
import { VERDICTS } from '../../../src/experiments/reproduce/verdict.js';

test('reproduce synthetic end to end on the tiny scale writes every output with computed verdicts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-repro-'));
  try {
    const doc = join(dir, 'docs', 'REPRODUCTION.md');
    const r = await reproduceSynthetic({
      scale: 'tiny',
      outDir: join(dir, 'out'),
      inProcess: true,
      cacheDir: null,
      docPath: doc,
    });
    assert.equal(r.analysis.seeds.length, 2);
    assert.equal(r.claims.length, 7);
    for (const c of r.claims) {
      assert.ok(VERDICTS.includes(c.verdict), c.verdict);
      assert.ok(c.rule.length > 20);
    }
    // the main table has every policy plus the tuned adaptive setting, and eps columns of the scale
    assert.equal(r.tables[0]!.rows.length, 12);
    assert.equal(r.tables[0]!.columns.length, 2 + 2);
    for (const f of [
      'report.html',
      'REPRODUCTION.md',
      'tables.md',
      'summary.json',
      'main-default.csv',
      'svg/reward-over-time.svg',
      'main/results.json',
      'tuning/cells.csv',
    ]) {
      assert.ok(existsSync(join(dir, 'out', f)), `missing ${f}`);
    }
    assert.ok(existsSync(doc));
    assert.ok(existsSync(join(dir, 'docs', 'img', 'reproduction', 'amplification-vs-q.svg')));
    const md = readFileSync(doc, 'utf8');
    assert.ok(md.includes('](img/reproduction/reward-vs-epsilon.svg)'));
    assert.ok(md.includes('reproduce movielens'));
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    assert.ok(html.includes('<svg'));
    assert.ok(!html.includes('<script'));
    assert.ok(!html.includes('**'), 'no Markdown leaks into the HTML report');
    assert.ok(html.includes('class="badge'), 'verdicts render as badges');
    assert.ok(html.includes('<details>'), 'the configuration JSON is folded away');
    assert.ok(r.timing.cellsRun > 0);
    // re-render from the stored results, with a power run on 3 seeds: no study cell is re-run
    const again = await reproduceSynthetic({
      scale: 'tiny',
      outDir: join(dir, 'out'),
      inProcess: true,
      cacheDir: null,
      fromResults: true,
      powerSeeds: 3,
    });
    assert.equal(again.claims.length, 9);
    assert.deepEqual(again.timing, r.timing, 'the re-render keeps the run timing');
    const power = again.claims.find((c) => c.id === 'power-ts-vs-ucb')!;
    assert.ok(
      power.parts.every((p) => p.ours.includes('3 seeds')),
      power.parts.map((p) => p.ours).join('; '),
    );
    assert.ok(existsSync(join(dir, 'out', 'power', 'results.json')));
    // the group budgets follow rho / k^2
    const g = r.analysis.group;
    assert.ok(Math.abs(g[1]!.budget.recordRho * 25 - g[0]!.budget.recordRho) < 1e-12);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
