/**
 * The full-information environment a cell runs on. A plain synthetic environment (no users) is the
 * replay of its seed's {@link SyntheticTrace}, shared by every cell of that config and seed in this
 * thread (the rounds do not depend on the policy, so the cell sees exactly what a fresh
 * `createEnvironment` would give); any other environment is built by `createEnvironment`.
 */
import type { Environment } from '../envs/Environment.js';
import { canonicalJson } from './canonicalJson.js';
import { createEnvironment } from './environmentRegistry.js';
import { SyntheticTrace } from './SyntheticTrace.js';
import type { CellConfig } from './types.js';

/** Traces kept per thread (the oldest dropped first): 12 seeds of the reproduction fit. */
const TRACES_KEPT = 32;
const traces = new Map<string, SyntheticTrace>();

/**
 * The environment of a full-information cell, for `cell.seed` and `cell.horizon`.
 *
 * @example
 * cellEnvironment(cell).dim; // returns cell.env.dim for a synthetic cell
 */
export function cellEnvironment(cell: CellConfig): Environment {
  const env = cell.env;
  if (env.kind !== 'synthetic' || env.arrivalsPerUnit !== undefined)
    return createEnvironment(env, cell.seed, cell.horizon);
  const key = `${cell.seed}|${canonicalJson(env)}`;
  let trace = traces.get(key);
  if (trace === undefined) {
    trace = new SyntheticTrace(env, cell.seed);
    if (traces.size >= TRACES_KEPT) traces.delete(traces.keys().next().value as string);
  } else traces.delete(key);
  // most recently used last
  traces.set(key, trace);
  return trace.replay(cell.horizon);
}
