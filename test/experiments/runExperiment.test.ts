import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cachePath } from '../../src/experiments/cellCache.js';
import { runExperiment } from '../../src/experiments/runExperiment.js';
import type { RunProgress } from '../../src/experiments/types.js';
import { validateExperimentConfig } from '../../src/experiments/validateExperimentConfig.js';
import { resultsToJson } from '../../src/experiments/writeResultsJson.js';

// a tiny grid: 2 policies (one private x 2 budgets, one non-private) x 2 seeds = 6 cells
const config = validateExperimentConfig({
  env: { kind: 'synthetic', dim: 4, arms: 12, armsPerRound: 3 },
  policies: [{ policy: 'adaprivate-ts', params: { batchSize: 20 } }, 'linucb'],
  epsilons: [1, 5],
  seeds: 2,
  horizon: 120,
  checkpoints: 4,
});

test('byte-identical results with 1 and 2 workers and in-process; ordered by key', async () => {
  const one = await runExperiment(config, { workers: 1 });
  const two = await runExperiment(config, { workers: 2 });
  const inline = await runExperiment(config, { inProcess: true });
  assert.equal(one.cells.length, 6);
  assert.equal(resultsToJson(one), resultsToJson(two));
  assert.equal(resultsToJson(one), resultsToJson(inline));
  const keys = one.cells.map((c) => c.key);
  assert.deepEqual(keys, [...keys].sort());
  const cell = one.cells.find((c) => c.config.policy === 'linucb')!;
  assert.equal(cell.config.epsilon, null);
  assert.equal(cell.checkpoints.length, 4);
  assert.deepEqual(
    cell.checkpoints.map((c) => c.round),
    [30, 60, 90, 120],
  );
  const last = cell.checkpoints.at(-1)!;
  assert.ok(Math.abs(cell.meanReward - last.cumulativeExpectedReward! / 120) < 1e-15);
  assert.ok(cell.regret! >= 0);
  const priv = one.cells.find((c) => c.config.policy === 'adaprivate-ts' && c.config.epsilon === 1)!;
  assert.ok(priv.privacy !== null && priv.privacy.epsilon <= 1 + 1e-9 && priv.privacy.releases > 0);
  assert.equal(cell.privacy, null);
  // the same seed gives every policy the same rounds: best possible reward is shared
  const seed1 = one.cells.filter((c) => c.seed === 1);
  const bestPlusRegret = seed1.map((c) => c.checkpoints.at(-1)!.cumulativeExpectedReward! + c.regret!);
  for (const v of bestPlusRegret) assert.ok(Math.abs(v - bestPlusRegret[0]!) < 1e-9);
});

test('cache: a rerun reuses every cell; a deleted cell alone is recomputed, with an identical result', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adaprivate-cache-'));
  try {
    const progress: RunProgress[] = [];
    const first = await runExperiment(config, {
      workers: 2,
      cacheDir: dir,
      onProgress: (p) => progress.push(p),
    });
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.json')).length, 6);
    assert.deepEqual(progress.at(-1), { done: 6, total: 6, cached: 0 });
    assert.ok(first.timings.every((t) => !t.cached));
    const victim = first.cells[2]!.key;
    const others = first.cells
      .filter((c) => c.key !== victim)
      .map((c) => statSync(cachePath(dir, c.key)).mtimeMs);
    rmSync(cachePath(dir, victim));
    const second = await runExperiment(config, { workers: 2, cacheDir: dir });
    const recomputed = second.timings.filter((t) => !t.cached).map((t) => t.key);
    assert.deepEqual(recomputed, [victim]);
    assert.equal(resultsToJson(second), resultsToJson(first));
    const after = first.cells
      .filter((c) => c.key !== victim)
      .map((c) => statSync(cachePath(dir, c.key)).mtimeMs);
    assert.deepEqual(after, others, 'cached cells are not rewritten');
    assert.equal(readdirSync(dir).filter((f) => f.includes('.tmp-')).length, 0, 'no temporary files left');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('abort: an aborted signal rejects with AbortError', async () => {
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(runExperiment(config, { workers: 1, signal: controller.signal }), {
    name: 'AbortError',
  });
  const c2 = new AbortController();
  const p = runExperiment(config, {
    inProcess: true,
    signal: c2.signal,
    onProgress: (pr) => {
      if (pr.done === 2) c2.abort();
    },
  });
  await assert.rejects(p, { name: 'AbortError' });
});

test('a failing cell names the cell', async () => {
  const bad = validateExperimentConfig({
    env: { kind: 'ratings', options: { featuresFile: '/nonexistent/features.bin' } },
    policies: ['lints'],
    seeds: 1,
    horizon: 10,
  });
  await assert.rejects(runExperiment(bad, { inProcess: true }), /cell lints eps=none seed=1 failed/);
});

test('the cache key includes a fingerprint of the code that computes cells', async () => {
  const { cacheVersion, codeFingerprint } = await import('../../src/experiments/codeFingerprint.js');
  const { VERSION } = await import('../../src/version.js');
  assert.match(codeFingerprint(), /^[0-9a-f]{12}$/);
  assert.equal(cacheVersion(), `${VERSION}+code.${codeFingerprint()}`);
  assert.equal(codeFingerprint(), codeFingerprint());
});
