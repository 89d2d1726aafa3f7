import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { reproduceSynthetic } from '../../../src/experiments/reproduce/reproduceSynthetic.js';

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
      assert.ok(
        ['reproduced', 'partly', 'inconclusive', 'not reproduced', 'not tested'].includes(c.verdict),
        c.verdict,
      );
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
    assert.ok(r.timing.cellsRun > 0);
    // the group budgets follow rho / k^2
    const g = r.analysis.group;
    assert.ok(Math.abs(g[1]!.budget.recordRho * 25 - g[0]!.budget.recordRho) < 1e-12);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
