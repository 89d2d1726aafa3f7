import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CellPool } from '../../src/experiments/CellPool.js';
import { cellRunKey } from '../../src/experiments/cellRunKey.js';
import { expandGrid } from '../../src/experiments/expandGrid.js';
import { runCell } from '../../src/experiments/runCell.js';
import { runExperiment } from '../../src/experiments/runExperiment.js';
import type { CellConfig } from '../../src/experiments/types.js';
import { validateExperimentConfig } from '../../src/experiments/validateExperimentConfig.js';
import { resultsToJson } from '../../src/experiments/writeResultsJson.js';
import { policyInfo } from '../../src/policies/index.js';

const env = { kind: 'synthetic', dim: 4, arms: 12, armsPerRound: 3 } as const;
const ts = policyInfo('adaprivate-ts').defaults;

// the main study's cell (defaults left out), a tuning grid's cell that spells the defaults out,
// and one that differs
const config = validateExperimentConfig({
  name: 'share',
  env,
  policies: [
    { policy: 'adaprivate-ts' },
    { policy: 'adaprivate-ts', params: { batchSize: [ts.batchSize], v: [ts.v] } },
    { policy: 'adaprivate-ts', params: { batchSize: [ts.batchSize], v: [0.5] } },
    'lints',
    { policy: 'lints', params: { v: [1] } },
  ],
  epsilons: [1],
  seeds: 2,
  horizon: 400,
  checkpoints: 4,
});

test('cellRunKey: the same for defaults left out and spelled out; different for another value, seed or budget', () => {
  const [plain, spelled, other] = expandGrid(config).filter(
    (c) => c.policy === 'adaprivate-ts' && c.seed === 1,
  );
  assert.deepEqual(spelled!.params, { batchSize: ts.batchSize, v: ts.v });
  const k = (c: CellConfig) => cellRunKey(c, 'test');
  assert.equal(k(plain!), k(spelled!));
  assert.notEqual(k(plain!), k(other!));
  assert.notEqual(k(plain!), k({ ...plain!, seed: 2 }));
  assert.notEqual(k(plain!), k({ ...plain!, epsilon: 2 }));
  assert.notEqual(k(plain!), k({ ...plain!, horizon: 300 }));
  assert.notEqual(k(plain!), cellRunKey(plain!, 'other version'));
  // real data: the prior depends on the params, so no run key; options that do not resolve: none
  assert.equal(k({ ...plain!, env: { kind: 'ratings', options: {} } } as unknown as CellConfig), null);
  assert.equal(k({ ...plain!, params: { v: -1 } }), null);
});

test('CellPool runs a cell once for its spelled-out twin: results identical to unshared cells, timings say shared', async () => {
  const pool = new CellPool(2);
  let pooled: Awaited<ReturnType<typeof runExperiment>>;
  try {
    pooled = await runExperiment(config, { pool });
  } finally {
    await pool.destroy();
  }
  // in the calling thread every cell is computed on its own
  const alone = await runExperiment(config, { inProcess: true });
  assert.equal(resultsToJson(pooled), resultsToJson(alone));
  const shared = pooled.timings.filter((t) => t.shared === true);
  // adaprivate-ts with its defaults spelled out and lints with v = 1, at 2 seeds
  assert.equal(shared.length, 4);
  assert.ok(alone.timings.every((t) => t.shared === undefined));
  for (const t of shared) {
    assert.equal(t.durationMs, 0);
    const cell = pooled.cells.find((c) => c.key === t.key)!;
    // the relabelled result is exactly what the cell computes when run
    assert.deepEqual(cell, runCell(cell.config));
  }
  // the cell with another value of v was run
  const other = pooled.cells.filter((c) => c.config.params.v === 0.5);
  assert.equal(other.length, 2);
  for (const c of other) assert.equal(pooled.timings.find((t) => t.key === c.key)!.shared, undefined);
});
