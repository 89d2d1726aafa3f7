import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

test('reproduce synthetic --tiny --json prints claims and writes the report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-cli-repro-'));
  try {
    const r = spawnSync(
      process.execPath,
      [cli, 'reproduce', 'synthetic', '--tiny', '--json', '--workers', '1', '--out', dir],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { scale: string; claims: { verdict: string }[] };
    assert.equal(out.scale, 'tiny');
    assert.equal(out.claims.length, 7);
    assert.ok(existsSync(join(dir, 'report.html')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('reproduce synthetic refuses --quick with --tiny and bad --workers', () => {
  const a = spawnSync(process.execPath, [cli, 'reproduce', 'synthetic', '--quick', '--tiny'], {
    encoding: 'utf8',
  });
  assert.equal(a.status, 2);
  assert.match(a.stderr, /--quick and --tiny/);
  const b = spawnSync(process.execPath, [cli, 'reproduce', 'synthetic', '--workers', '0'], {
    encoding: 'utf8',
  });
  assert.equal(b.status, 2);
  assert.match(b.stderr, /--workers must be a positive integer/);
});
