import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { benchPolicy } from '../../src/cli/commands/bench.js';
import { runCli } from './runCli.js';

const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function run(args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
}

test('bench --json prints the rate and the run description', () => {
  const r = run([
    'bench',
    '--policy',
    'adaprivate-ts',
    '--dim',
    '5',
    '--arms',
    '3',
    '--horizon',
    '2500',
    '--repeat',
    '3',
    '--json',
  ]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.ok(typeof out.roundsPerSecond === 'number' && out.roundsPerSecond > 0);
  // 3 blocks (1,024 + 1,024 + 452 rounds), each timed by its fastest repetition: never slower than
  // the fastest whole repetition, and the rate is T / seconds
  const secs = out.seconds as number;
  assert.ok(secs > 0 && secs <= (out.bestRunSeconds as number) + 1e-9, `${secs} vs ${out.bestRunSeconds}`);
  assert.ok(Math.abs((out.roundsPerSecond as number) - 2500 / secs) <= 1);
  assert.equal(out.policy, 'adaprivate-ts');
  assert.equal(out.dim, 5);
  assert.equal(out.arms, 3);
  assert.equal(out.horizon, 2500);
  assert.equal(out.seed, 1);
  assert.equal(typeof out.version, 'string');
});

test('bench without --json prints one human-readable line', () => {
  const r = run(['bench', '--policy', 'linucb', '--dim', '3', '--horizon', '500']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^LinUCB: [\d,]+ rounds\/s \(d=3, K=5, T=500/);
});

// in-process (runCli): the spawned program's exit code is test/cli/main.test.ts's
test('bench refuses an unknown policy and a bad dimension with exit code 2', async () => {
  const r = await runCli(['bench', '--policy', 'nope', '--horizon', '10']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--policy: unknown policy id "nope"\. Known ids: adaprivate-ts/);
  const r2 = await runCli(['bench', '--policy', 'lints', '--dim', '0']);
  assert.equal(r2.status, 2);
  assert.match(r2.stderr, /--dim must be a positive integer/);
});

test('benchPolicy is deterministic in what it plays (same checksum for the same seed)', () => {
  const o = { policy: 'lints', dim: 4, arms: 5, horizon: 3000, seed: 3, epsilon: 1, repeat: 2 } as const;
  const a = benchPolicy(o);
  const b = benchPolicy(o);
  assert.equal(a.checksum, b.checksum);
  assert.equal(a.streamRounds, 1024);
});

test('benchPolicy keepBlocks: one fastest time per 1,024-round block, summing to seconds', () => {
  const r = benchPolicy({
    policy: 'lints',
    dim: 4,
    arms: 3,
    horizon: 2100,
    seed: 1,
    epsilon: 1,
    repeat: 2,
    keepBlocks: true,
  });
  const blocks = r.blockSeconds!;
  assert.equal(blocks.length, 3);
  assert.ok(blocks.every((s) => s > 0));
  assert.ok(Math.abs(blocks.reduce((a, b) => a + b, 0) - r.seconds) < 1e-12);
  const plain = { policy: 'lints', dim: 4, arms: 3, horizon: 500, seed: 1, epsilon: 1, repeat: 1 } as const;
  assert.equal(benchPolicy(plain).blockSeconds, undefined);
});

test('benchPolicy blockRounds: blocks of the given length, same play; bad lengths refused', () => {
  const o = { policy: 'lints', dim: 4, arms: 3, horizon: 2100, seed: 1, epsilon: 1, repeat: 1 } as const;
  const r = benchPolicy({ ...o, keepBlocks: true, blockRounds: 100 });
  assert.equal(r.blockRounds, 100);
  assert.equal(r.blockSeconds!.length, 21);
  assert.equal(r.checksum, benchPolicy(o).checksum);
  assert.equal(benchPolicy(o).blockRounds, 1024);
  assert.throws(() => benchPolicy({ ...o, blockRounds: 0 }), /blockRounds must be a positive integer/);
  const run = spawnSync(
    process.execPath,
    [cli, 'bench', '--policy', 'lints', '--dim', '3', '--horizon', '300', '--block', '50', '--json'],
    { encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).blockRounds, 50);
});
