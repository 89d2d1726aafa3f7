import { createHash } from 'node:crypto';
import { resolveConfig } from '../policies/index.js';
import { canonicalJson } from './canonicalJson.js';
import { cellPolicyOptions, NO_PRIOR } from './runFullInformation.js';
import type { CellConfig } from './types.js';

/**
 * The key of what a cell computes, or null when it is not known without running it. Two cells
 * with the same run key give the same result except for their own `key` and `config` (so
 * `CellPool` runs one and relabels its result for the other).
 *
 * A cell's run depends on its environment, protocol, seed, horizon and checkpoints, and on its
 * policy, which `createPolicy` builds from `resolveConfig(policy, options)` alone (every default
 * filled in). So the run key hashes those and the resolved configuration, not the params as
 * written: `{}` and `{ batchSize: 300, v: 1 }` (AdaPrivate-TS's defaults spelled out, as a tuning
 * grid does) give one key. Only synthetic environments, whose cells have no prior (a ratings
 * environment's prior is fitted from its data and depends on the params): null otherwise, and
 * null when the options do not resolve (the run reports that error).
 *
 * @example
 * cellRunKey({ ...cell, params: {} }, v) === cellRunKey({ ...cell, params: { batchSize: 300, v: 1 } }, v); // returns true for adaprivate-ts
 */
export function cellRunKey(cell: CellConfig, version: string): string | null {
  if (cell.env.kind !== 'synthetic') return null;
  let resolved: unknown;
  try {
    resolved = resolveConfig(
      cell.policy as Parameters<typeof resolveConfig>[0],
      cellPolicyOptions(cell, cell.env.dim, NO_PRIOR),
    );
  } catch {
    return null;
  }
  const run = {
    env: cell.env,
    protocol: cell.protocol,
    policy: cell.policy,
    epsilon: cell.epsilon,
    delta: cell.delta,
    horizon: cell.horizon,
    seed: cell.seed,
    checkpointEvery: cell.checkpointEvery,
    resolved,
  };
  return createHash('sha256').update(canonicalJson({ run, version })).digest('hex').slice(0, 24);
}
