/**
 * Expands an experiment grid into its cells: for every policy, every combination of its
 * hyperparameter values (cartesian product, keys sorted), every epsilon (private policies; one
 * `null` budget for non-private ones) and every seed. Order: policies, params, epsilons, seeds as
 * listed (the runner itself orders results by cell key).
 */
import { parsePolicyId, policyInfo } from '../policies/index.js';
import type { CellConfig, ExperimentConfig, ParamValue, PolicyGridEntry } from './types.js';

/** All hyperparameter settings of a grid entry, keys sorted; `[{}]` when there are none. */
export function paramCombinations(entry: PolicyGridEntry): Record<string, ParamValue>[] {
  let combos: Record<string, ParamValue>[] = [{}];
  for (const key of Object.keys(entry.params).sort()) {
    const values = entry.params[key] ?? [];
    const next: Record<string, ParamValue>[] = [];
    for (const c of combos) for (const v of values) next.push({ ...c, [key]: v });
    combos = next;
  }
  return combos;
}

/**
 * The cells of an experiment, frozen.
 *
 * @example
 * expandGrid(validateExperimentConfig({ policies: ['lints'], seeds: 3, horizon: 100 })).length; // returns 3
 */
export function expandGrid(config: ExperimentConfig): CellConfig[] {
  const checkpointEvery = Math.ceil(config.horizon / config.checkpoints);
  const cells: CellConfig[] = [];
  for (const entry of config.policies) {
    const isPrivate = policyInfo(parsePolicyId(entry.policy, 'policies')).isPrivate;
    const budgets: (number | null)[] = isPrivate ? [...config.epsilons] : [null];
    for (const params of paramCombinations(entry)) {
      for (const epsilon of budgets) {
        for (const seed of config.seeds) {
          cells.push(
            Object.freeze({
              env: config.env,
              protocol: config.protocol,
              policy: entry.policy,
              epsilon,
              delta: isPrivate ? config.delta : null,
              params: Object.freeze(params),
              horizon: config.horizon,
              seed,
              checkpointEvery,
            }),
          );
        }
      }
    }
  }
  return cells;
}
