// `adaprivate audit --unit user` from the command line: the JSON names the unit and the bounds'
// pair, and the flags are validated (exit code 2 and one line).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from './runCli.js';

test('audit --unit user --json: a user-level claim on the whole-unit pair, not refuted', async () => {
  const r = await runCli([
    'audit',
    '--policy',
    'adaprivate-ts',
    '--unit',
    'user',
    '--epsilon',
    '2',
    '--contributions',
    '1',
    '--participations',
    '2',
    '--samples',
    '300',
    '--noise-seed',
    '1',
    '--json',
  ]);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.equal(j.unit, 'user');
  assert.match(
    j.neighbours as string,
    /every reward of one unit \(6 rewards: 2 in each of 3 releases, bounds c = 1, m = 2\)/,
  );
  assert.ok(Math.abs((j.claimedEpsilon as number) - 2) < 1e-9);
  assert.equal(j.refuted, false);
});

test('audit --unit: bad input exits with code 2 and one line', async () => {
  for (const [args, pattern] of [
    [['audit', '--policy', 'adaprivate-ts', '--unit', 'device'], /--unit must be event or user/],
    [['audit', '--policy', 'adaprivate-ts', '--contributions', '2'], /need --unit user/],
    [['audit', '--policy', 'adaprivate-ts', '--unit', 'user', '--mode', 'actions'], /release only/],
    [
      ['audit', '--policy', 'jdp-linucb', '--unit', 'user', '--samples', '100'],
      /batched AdaPrivate policies/,
    ],
  ] as const) {
    const r = await runCli([...args]);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('reproduce users --tiny --json: claims, rows and files', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-cli-users-'));
  try {
    const r = await runCli(['reproduce', 'users', '--tiny', '--workers', '1', '--out', dir, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as { scale: string; rows: unknown[]; files: string[] };
    assert.equal(j.scale, 'tiny');
    assert.ok(j.rows.length >= 4);
    assert.ok(j.files.some((f) => f.endsWith('results.json')));
    const bad = await runCli(['reproduce', 'users', '--tiny', '--quick']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /exclude each other/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
