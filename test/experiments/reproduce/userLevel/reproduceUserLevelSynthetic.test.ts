// The synthetic user-level study end to end at the tiny scale, in this thread: outputs written,
// seeds and configs recorded, the bounds variant equal to group privacy at k = 1 (one arrival per
// user: the same noise and nothing to drop) and dropping rewards at k > 1, the doc section upserted.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { reproduceUserLevelSynthetic } from '../../../../src/experiments/reproduce/userLevel/reproduceUserLevelSynthetic.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-users-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('reproduceUserLevelSynthetic (tiny)', () => {
  test('runs, records and documents the study', async () => {
    const doc = join(dir, 'REPRODUCTION.md');
    writeFileSync(doc, '# Reproduction\n\nkept text\n');
    const r = await reproduceUserLevelSynthetic({
      scale: 'tiny',
      outDir: join(dir, 'out'),
      inProcess: true,
      docPath: doc,
    });
    const at = (k: number, v: string) => r.rows.find((x) => x.k === k && x.variant === v);
    const g1 = at(1, 'group-zcdp')!;
    const b1 = at(1, 'bounds-zcdp')!;
    assert.deepEqual(
      b1.percent.perSeed,
      g1.percent.perSeed,
      'k = 1: bounds c = 1, m = 1 is the event-level policy',
    );
    assert.equal(b1.dropped?.mean, 0);
    const b4 = at(4, 'bounds-zcdp')!;
    assert.ok(b4.dropped !== null && b4.dropped.mean > 0, 'k = 4: a second reward in one batch is dropped');
    assert.ok(
      b4.ledgerEpsilon !== null && b4.ledgerEpsilon <= 5 + 1e-9,
      `user-level ledger ${b4.ledgerEpsilon}`,
    );
    assert.ok(at(4, 'group-zcdp')!.sigma > b4.sigma, 'bounds add less noise than group privacy');
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'));
    assert.deepEqual(results.seeds, [1, 2]);
    assert.equal(results.scale.name, 'tiny');
    assert.ok(typeof results.version === 'string');
    assert.ok(results.experiments.every((e: { config: { seeds: number[] } }) => e.config.seeds.length === 2));
    const md = readFileSync(doc, 'utf8');
    assert.match(md, /kept text/);
    assert.match(md, /<!-- section:user-level-synthetic:start -->/);
    assert.match(md, /## User-level privacy: synthetic users \(tiny run: indicative only\)/);
    assert.match(md, /adaprivate reproduce users --tiny/);
    assert.match(md, /s CPU/);
  });
});
