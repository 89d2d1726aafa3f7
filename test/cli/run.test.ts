import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from './runCli.js';

const here = fileURLToPath(import.meta.url);
// compiled: dist/test/cli/run.test.js -> dist/src/cli/main.js; from source (tsx): src/cli/main.ts
const cli = here.endsWith('.ts')
  ? fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))
  : fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const nodeArgs = here.endsWith('.ts') ? ['--import', 'tsx', cli] : [cli];

function run(args: string[]) {
  return spawnSync(process.execPath, [...nodeArgs, 'run', ...args], { encoding: 'utf8' });
}

const grid = [
  '--env',
  'synthetic',
  '--policy',
  'adaprivate-ts,lints',
  '--epsilon',
  '1,5',
  '--seeds',
  '2',
  '--horizon',
  '100',
];
const small = ['--dim', '4', '--arms', '10', '--batch', '20', '--workers', '2'];

test('run --json prints one object with a results array (policy, epsilon, meanReward, std, perSeed, regret, config)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-run-'));
  try {
    const r = run([...grid, ...small, '--json', '--out', dir]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const out = JSON.parse(r.stdout) as {
      version: string;
      seeds: number[];
      results: {
        policy: string;
        epsilon: number | null;
        meanReward: number;
        std: number;
        perSeed: number[];
        regret: number;
        config: { policy: string; params: Record<string, number>; horizon: number; seeds: number[] };
      }[];
    };
    assert.deepEqual(out.seeds, [1, 2]);
    assert.match(out.version, /^\d+\.\d+\.\d+/);
    assert.deepEqual(
      out.results.map((e) => [e.policy, e.epsilon]),
      [
        ['adaprivate-ts', 1],
        ['adaprivate-ts', 5],
        ['lints', null],
      ],
    );
    for (const e of out.results) {
      assert.equal(e.perSeed.length, 2);
      const mean = (e.perSeed[0]! + e.perSeed[1]!) / 2;
      assert.ok(Math.abs(e.meanReward - mean) < 1e-12);
      assert.ok(e.meanReward > 0 && e.meanReward < 1 && e.std >= 0 && e.regret >= 0);
      assert.equal(e.config.horizon, 100);
      assert.deepEqual(e.config.seeds, [1, 2]);
    }
    assert.deepEqual(out.results[0]!.config.params, { batchSize: 20 });
    for (const f of ['results.json', 'cells.csv', 'checkpoints.csv', 'timings.json'])
      assert.ok(existsSync(join(dir, f)), f);
    const saved = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { cells: unknown[] };
    assert.equal(saved.cells.length, 6);
    // a second run is served from the cache and prints the same numbers
    const again = run([...grid, ...small, '--json', '--out', dir]);
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run without --json prints a readable table', () => {
  const r = run([...grid, ...small]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /AdaPrivate-TS/);
  assert.match(r.stdout, /non-private/);
  assert.match(r.stdout, /6 cells \(0 from cache\)/);
});

// in-process: the spawned program's exit code and stderr are covered above and by test/cli/main.test.ts
test('bad input gives a one-line error and exit code 2', async () => {
  const cases: [string[], RegExp][] = [
    [
      ['--policy', 'nope', '--seeds', '1', '--horizon', '10'],
      /--policy: unknown policy id "nope"\. Known ids: /,
    ],
    [['--policy', 'lints', '--seeds', '0', '--horizon', '10'], /--seeds must be a positive integer/],
    [
      ['--policy', 'adaprivate-ts', '--seeds', '1', '--horizon', '10'],
      /epsilons must list at least one budget/,
    ],
    [
      ['--env', 'movielens', '--policy', 'lints', '--seeds', '1', '--horizon', '10'],
      /--env must be 'synthetic'/,
    ],
    [['--policy', 'lints', '--horizon', '10'], /--seeds N is required/],
    [['--config', 'x.yaml', '--policy', 'lints'], /--config cannot be combined/],
  ];
  for (const [args, re] of cases) {
    const r = await runCli(['run', ...args]);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, re);
  }
});
