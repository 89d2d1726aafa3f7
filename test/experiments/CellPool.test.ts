import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CellPool, cellCost } from '../../src/experiments/CellPool.js';
import { cellKey } from '../../src/experiments/cellKey.js';
import { expandGrid } from '../../src/experiments/expandGrid.js';
import { runExperiment } from '../../src/experiments/runExperiment.js';
import type { CellConfig } from '../../src/experiments/types.js';
import { validateExperimentConfig } from '../../src/experiments/validateExperimentConfig.js';
import { resultsToJson } from '../../src/experiments/writeResultsJson.js';

const env = { kind: 'synthetic', dim: 4, arms: 12, armsPerRound: 3 } as const;
// two studies that share the linucb cells (same env, seeds and horizon)
const a = validateExperimentConfig({
  name: 'a',
  env,
  policies: [{ policy: 'adaprivate-ts', params: { batchSize: 20 } }, 'linucb'],
  epsilons: [1],
  seeds: 2,
  horizon: 120,
  checkpoints: 4,
});
const b = validateExperimentConfig({
  name: 'b',
  env,
  policies: ['linucb', 'lints'],
  seeds: 2,
  horizon: 120,
  checkpoints: 4,
});

test('one pool for two runs at once: results identical to separate runs, a shared cell runs once', async () => {
  const pool = new CellPool(2);
  let ra: Awaited<ReturnType<typeof runExperiment>>;
  let rb: typeof ra;
  try {
    [ra, rb] = await Promise.all([runExperiment(a, { pool }), runExperiment(b, { pool })]);
  } finally {
    await pool.destroy();
  }
  assert.equal(resultsToJson(ra), resultsToJson(await runExperiment(a, { workers: 2 })));
  assert.equal(resultsToJson(rb), resultsToJson(await runExperiment(b, { inProcess: true })));
  const shared = ra.cells.filter((c) => c.config.policy === 'linucb');
  assert.equal(shared.length, 2);
  for (const c of shared) {
    // the very object computed once for both runs
    assert.ok(rb.cells.some((d) => d === c));
  }
});

test('most expensive waiting cell first; cells submitted in one tick are ordered together', async () => {
  const base = expandGrid(b).find((c) => c.policy === 'lints')!;
  const cells: CellConfig[] = [60, 240, 30, 120].map((horizon) => ({
    ...base,
    horizon,
    checkpointEvery: 30,
  }));
  const pool = new CellPool(1);
  const order: number[] = [];
  try {
    await Promise.all(
      cells.map((cell) => pool.run(cellKey(cell, 'test'), cell).then(() => order.push(cell.horizon))),
    );
  } finally {
    await pool.destroy();
  }
  assert.deepEqual(order, [240, 120, 60, 30]);
});

test('equal costs: the lowest seed first, so that the cells of one seed run together', async () => {
  const base = expandGrid(b).find((c) => c.policy === 'lints')!;
  // submitted seed by seed for two settings (as expandGrid lists them): run setting by setting per seed
  const cells: CellConfig[] = [1, 0.5].flatMap((v) =>
    [3, 1, 2].map((seed) => ({ ...base, seed, params: { v } })),
  );
  const pool = new CellPool(1);
  const order: string[] = [];
  try {
    await Promise.all(
      cells.map((cell) =>
        pool.run(cellKey(cell, 'test'), cell).then(() => order.push(`${cell.seed}/${cell.params.v}`)),
      ),
    );
  } finally {
    await pool.destroy();
  }
  assert.deepEqual(order, ['1/1', '1/0.5', '2/1', '2/0.5', '3/1', '3/0.5']);
});

test('cellCost: rounds x (d^2 + K d) x policy weight; an aborted waiting cell rejects', async () => {
  const cell = expandGrid(a).find((c) => c.policy === 'adaprivate-ts')!;
  assert.equal(cellCost(cell), 120 * (16 + 12));
  assert.equal(cellCost({ ...cell, horizon: 240 }), 2 * cellCost(cell));
  assert.ok(cellCost({ ...cell, policy: 'lints' }) < cellCost(cell));
  assert.throws(() => new CellPool(0), /threads must be a positive integer\. Got 0/);
  const pool = new CellPool(1);
  const ctl = new AbortController();
  try {
    const first = pool.run(cellKey(cell, 'test'), cell);
    const second = pool.run(cellKey({ ...cell, seed: 9 }, 'test'), { ...cell, seed: 9 }, ctl.signal);
    ctl.abort();
    await assert.rejects(second, { name: 'AbortError' });
    assert.equal((await first).result.config.seed, cell.seed);
  } finally {
    await pool.destroy();
  }
  await assert.rejects(pool.run(cellKey(cell, 'test'), cell), /destroyed/);
});
