/**
 * CSV outputs of a run (RFC 4180 quoting, `\n` line ends, numbers in shortest round-trip form,
 * empty field for null): `cells.csv`, one row per cell, and `checkpoints.csv`, one row per cell
 * and checkpoint (long format, ready for plotting tools).
 */
import { join } from 'node:path';
import type { CellResult, ExperimentResult } from './types.js';
import { writeAtomic } from './writeAtomic.js';

function field(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const row = (values: readonly unknown[]): string => `${values.map(field).join(',')}\n`;

function paramsText(c: CellResult): string {
  return Object.keys(c.config.params)
    .sort()
    .map((k) => `${k}=${c.config.params[k]}`)
    .join(';');
}

/**
 * One row per cell.
 *
 * @example
 * cellsCsv(result).split('\n')[0]; // returns 'key,policy,epsilon,delta,params,seed,horizon,meanReward,...'
 */
export function cellsCsv(result: ExperimentResult): string {
  let out = row([
    'key',
    'policy',
    'epsilon',
    'delta',
    'params',
    'seed',
    'horizon',
    'meanReward',
    'meanRealisedReward',
    'regret',
    'effectiveSteps',
    'epsilonSpent',
    'rhoSpent',
    'releases',
    'clippedCount',
  ]);
  for (const c of result.cells) {
    out += row([
      c.key,
      c.config.policy,
      c.config.epsilon,
      c.config.delta,
      paramsText(c),
      c.seed,
      c.config.horizon,
      c.meanReward,
      c.meanRealisedReward,
      c.regret,
      c.effectiveSteps,
      c.privacy?.epsilon,
      c.privacy?.rho,
      c.privacy?.releases,
      c.clippedCount,
    ]);
  }
  return out;
}

/**
 * One row per cell and checkpoint.
 *
 * @example
 * checkpointsCsv(result).split('\n')[0]; // returns 'key,policy,epsilon,params,seed,round,cumulativeReward,...'
 */
export function checkpointsCsv(result: ExperimentResult): string {
  let out = row([
    'key',
    'policy',
    'epsilon',
    'params',
    'seed',
    'round',
    'cumulativeReward',
    'cumulativeExpectedReward',
    'cumulativeRegret',
    'effectiveSteps',
    'ctr',
  ]);
  for (const c of result.cells) {
    const p = paramsText(c);
    for (const cp of c.checkpoints) {
      out += row([
        c.key,
        c.config.policy,
        c.config.epsilon,
        p,
        c.seed,
        cp.round,
        cp.cumulativeReward,
        cp.cumulativeExpectedReward,
        cp.cumulativeRegret,
        cp.effectiveSteps,
        cp.ctr,
      ]);
    }
  }
  return out;
}

/**
 * Writes `cells.csv` and `checkpoints.csv` into `dir` (atomically).
 *
 * @example
 * writeResultsCsv(result, 'out'); // creates out/cells.csv and out/checkpoints.csv
 */
export function writeResultsCsv(result: ExperimentResult, dir: string): void {
  writeAtomic(join(dir, 'cells.csv'), cellsCsv(result));
  writeAtomic(join(dir, 'checkpoints.csv'), checkpointsCsv(result));
}
