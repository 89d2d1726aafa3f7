import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * Size budget of the adaprivate-core browser bundle, gzipped (README: measured 52.9 KB with the exact
 * accountant, user-level bounds and snapshot MACs; 71.1 KB once decision logs are validated with the
 * decision-log schema through TypeBox, issue 26; 75.1 KB once the privacy ledger folds its
 * partitions, so that it stays bounded over a long run, session 22).
 */
const CORE_GZIP_BUDGET = 76_000;
const root = new URL('../../../', import.meta.url);

test('adaprivate-core builds for the browser: no Node built-in, within its gzipped size budget, and it works', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-browser-'));
  try {
    const core = join(dir, 'core.js');
    const out = execFileSync(
      process.execPath,
      ['scripts/build-browser.mjs', '--out-core', core, '--out-site', join(dir, 'site')],
      { cwd: root, encoding: 'utf8' },
    );
    const sizes = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, { gzipBytes: number }>;
    const text = readFileSync(core);
    const gz = gzipSync(text, { level: 9 }).length;
    assert.ok(gz <= CORE_GZIP_BUDGET, `core bundle ${gz} bytes gzipped > budget ${CORE_GZIP_BUDGET}`);
    assert.ok(Object.values(sizes).every((s) => s.gzipBytes > 0));
    const src = text.toString('utf8');
    assert.doesNotMatch(src, /from"node:|import\("node:|require\(/, 'no Node module reached');
    // the bundle is an ES module a page can import; in Node its API works too
    const m = (await import(pathToFileURL(core).href)) as typeof import('../../src/index.js');
    assert.equal(m.VERSION, JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).version);
    const p = m.createPolicy('adaprivate-ts', { dim: 2, horizon: 100, epsilon: 1, batchSize: 5, seed: 1 });
    const features = Float64Array.of(1, 0, 0, 1);
    for (let t = 0; t < 10; t++) {
      p.select(features, 2);
      p.update(1);
    }
    assert.equal(p.privacy().releases, 2);
    assert.equal(
      m.loadPolicy(p.save()).privacy().releases,
      2,
      'snapshots round-trip (base64 without Buffer)',
    );
    assert.throws(() => m.savePolicyFile(p, 'x.json'), /no file system in a browser/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
