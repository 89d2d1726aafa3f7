import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from './runCli.js';

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

// in-process (runCli): the spawned program's exit code is test/cli/main.test.ts's
test('reproduce synthetic refuses --quick with --tiny and bad --workers', async () => {
  const a = await runCli(['reproduce', 'synthetic', '--quick', '--tiny']);
  assert.equal(a.status, 2);
  assert.match(a.stderr, /--quick and --tiny/);
  const b = await runCli(['reproduce', 'synthetic', '--workers', '0']);
  assert.equal(b.status, 2);
  assert.match(b.stderr, /--workers must be a positive integer/);
});

test('reproduce exact --tiny --json: paired rows with both sigmas; bad --seeds and --policies exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-cli-exact-'));
  try {
    const r = spawnSync(
      process.execPath,
      [cli, 'reproduce', 'exact', '--tiny', '--json', '--workers', '1', '--out', dir],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      scale: string;
      rows: { policy: string; epsilon: number; sigmaPaper: number; sigmaExact: number }[];
      claims: { id: string }[];
    };
    assert.equal(out.scale, 'tiny');
    assert.equal(out.rows.length, 16, '8 policies x eps 1 and 5');
    assert.ok(out.rows.every((x) => x.sigmaExact < x.sigmaPaper));
    assert.deepEqual(
      out.claims.map((c) => c.id),
      ['exact-ts-synthetic', 'exact-all-synthetic'],
    );
    assert.ok(existsSync(join(dir, 'REPORT.md')) && existsSync(join(dir, 'claim-exact-accounting.svg')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const a = spawnSync(process.execPath, [cli, 'reproduce', 'exact', '--seeds', '1'], { encoding: 'utf8' });
  assert.equal(a.status, 2);
  assert.match(a.stderr, /--seeds must be an integer >= 2. Got 1/);
  const b = spawnSync(
    process.execPath,
    [cli, 'reproduce', 'movielens-exact', '--data', '.', '--policies', 'jdp-linucb'],
    { encoding: 'utf8' },
  );
  assert.equal(b.status, 2);
  assert.match(b.stderr, /--policies must list private policies that take the accountant option/);
  const h = spawnSync(process.execPath, [cli, 'reproduce', '--help'], { encoding: 'utf8' });
  assert.match(h.stdout, /exact \[options\]/);
  assert.match(h.stdout, /movielens-exact \[options\]/);
});
