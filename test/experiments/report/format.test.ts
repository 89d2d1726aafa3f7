import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ciHalfWidth,
  formatMeanCi,
  formatNumber,
  formatPercent,
  formatPValue,
  formatSignedPercent,
} from '../../../src/experiments/report/format.js';
import type { SeedStats } from '../../../src/experiments/types.js';

const stats: SeedStats = {
  n: 3,
  mean: 0.7,
  std: 0.02,
  ci95: [0.65, 0.75],
  perSeed: [0.68, 0.7, 0.72],
  seeds: [1, 2, 3],
};

test('formatNumber rounds and never prints negative zero', () => {
  assert.equal(formatNumber(0.712345, 3), '0.712');
  assert.equal(formatNumber(-0.0001, 2), '0.00');
  assert.equal(formatNumber(Number.NaN), 'n/a');
  assert.equal(formatNumber(null), 'n/a');
});

test('formatMeanCi prints the mean and the CI half-width', () => {
  assert.ok(Math.abs(ciHalfWidth(stats) - 0.05) < 1e-12);
  assert.equal(formatMeanCi(stats, 3), '0.700 ± 0.050');
  assert.equal(formatMeanCi(null), 'n/a');
});

test('percentages and p-values', () => {
  assert.equal(formatPercent(0.9671), '96.7%');
  assert.equal(formatSignedPercent(0.015), '+1.5%');
  assert.equal(formatSignedPercent(-0.0123), '-1.2%');
  assert.equal(formatPValue(0.0042), '0.004');
  assert.equal(formatPValue(0.0004), '<0.001');
  assert.equal(formatPValue(Number.NaN), 'n/a');
});
