/**
 * One full-information cell (SPEC section 5): each round the environment offers K arms, the policy
 * selects one and learns its realised reward; the runner sums the chosen arm's expected reward and
 * its regret against the best offered arm. Imports no Node built-in, so the same loop runs in
 * `runCell` (CLI, experiments) and in a browser (site/playground): same seeds, same numbers.
 */
import type { Environment } from '../envs/Environment.js';
import type { Policy, PolicySpec } from '../policies/index.js';
import { createPolicy, isPolicyId, paperAccountant, parsePolicySpec, policyInfo } from '../policies/index.js';
import type { CellConfig, Checkpoint } from './types.js';
import { UnitTally } from './UnitTally.js';

/** A cell's warm-start prior (real data): mean and weight, or null each (synthetic: cold start). */
export interface CellPrior {
  readonly mean: readonly number[] | null;
  readonly weight: number | null;
}

/** The cold start of synthetic environments. */
export const NO_PRIOR: CellPrior = { mean: null, weight: null };

/**
 * The options the cell's policy is created with: its params, dim, horizon and seed; the noise
 * stream seeded by the cell's seed for private policies (research mode: `privacy().noise` is
 * 'seeded'); the prior's mean and weight unless the params set them; the paper's accountant unless
 * the params name one; the cell's epsilon and delta. The policy is a function of
 * `resolveConfig(cell.policy, these options)` alone (createPolicy), which `cellRunKey` relies on.
 *
 * @example
 * cellPolicyOptions(cell, 20, NO_PRIOR).noiseSeed; // returns cell.seed for a private policy
 */
export function cellPolicyOptions(cell: CellConfig, dim: number, prior: CellPrior): Record<string, unknown> {
  if (!isPolicyId(cell.policy))
    throw new RangeError(`runCell: unknown policy ${JSON.stringify(cell.policy)}.`);
  const options: Record<string, unknown> = { ...cell.params, dim, horizon: cell.horizon, seed: cell.seed };
  if (cell.params.priorMean === undefined && prior.mean !== null) options.priorMean = prior.mean;
  // Research runs are reproducible: the noise stream is seeded by the cell's seed (research mode,
  // reported as privacy().noise = 'seeded'); a deployment leaves noiseSeed out and gets secure noise.
  if (policyInfo(cell.policy).isPrivate) options.noiseSeed = cell.seed;
  // Experiments reproduce the paper: its accounting unless the cell's params name an accountant
  // (new policies elsewhere default to the exact accountant, docs/policies.md)
  const paper = paperAccountant(cell.policy);
  if (paper !== undefined && cell.params.accountant === undefined) options.accountant = paper;
  if (cell.params.lambda === undefined && prior.weight !== null) options.lambda = prior.weight;
  if (cell.epsilon !== null) options.epsilon = cell.epsilon;
  if (cell.delta !== null) options.delta = cell.delta;
  return options;
}

/**
 * The cell's policy, created from {@link cellPolicyOptions}.
 *
 * @example
 * cellPolicy(cell, 20, NO_PRIOR).privacy().noise; // returns 'seeded' for a private policy
 */
export function cellPolicy(cell: CellConfig, dim: number, prior: CellPrior): Policy {
  const spec = cellPolicySpec(cell, dim, prior);
  return createPolicy(spec.id, spec.options);
}

/**
 * The spec of {@link cellPolicy}'s policy, parsed by `parsePolicySpec` (a `RangeError` naming the
 * policy, the option, the value and the rule when the cell's options are refused): `adaprivate run`
 * checks every cell with it before it runs any.
 *
 * @example
 * cellPolicySpec(cell, 20, NO_PRIOR).options.dim; // returns 20
 */
export function cellPolicySpec(cell: CellConfig, dim: number, prior: CellPrior): PolicySpec {
  return parsePolicySpec(cell.policy, cellPolicyOptions(cell, dim, prior), `cell ${cell.policy}`);
}

function isCheckpoint(t: number, cell: CellConfig): boolean {
  return t % cell.checkpointEvery === 0 || t === cell.horizon;
}

/**
 * Runs the cell's policy on `env` (seeded by the caller) for the cell's horizon. `onCheckpoint` is
 * called at each checkpoint with the round and the policy (read-only use: e.g. its privacy()), after
 * the checkpoint is recorded; it does not change the run.
 *
 * @example
 * runFullInformation(cell, createSyntheticEnvironment(opts, cell.seed), NO_PRIOR).meanReward; // e.g. 0.57
 */
export function runFullInformation(
  cell: CellConfig,
  env: Environment,
  prior: CellPrior,
  onCheckpoint?: (round: number, policy: Policy) => void,
) {
  const policy = cellPolicy(cell, env.dim, prior);
  const k = env.armsPerRound;
  const features = new Float64Array(k * env.dim);
  const expected = new Float64Array(k);
  const checkpoints: Checkpoint[] = [];
  let cumR = 0;
  let cumE = 0;
  let cumRegret = 0;
  const tally = env.unit === undefined ? null : new UnitTally();
  for (let t = 1; t <= cell.horizon; t++) {
    env.nextRound(features, expected);
    const arm = policy.select(features, k);
    const r = env.reward(arm);
    if (tally === null) policy.update(r);
    else {
      // the round's privacy unit goes with its reward: a user-level policy bounds and protects it,
      // an event-level one ignores it
      const unit = env.unit!();
      tally.add(unit);
      policy.update(r, unit);
    }
    let best = expected[0]!;
    for (let a = 1; a < k; a++) if (expected[a]! > best) best = expected[a]!;
    const e = expected[arm]!;
    cumR += r;
    cumE += e;
    cumRegret += best - e;
    if (isCheckpoint(t, cell)) {
      checkpoints.push({
        round: t,
        cumulativeReward: cumR,
        cumulativeExpectedReward: cumE,
        cumulativeRegret: cumRegret,
        effectiveSteps: null,
        ctr: null,
      });
      onCheckpoint?.(t, policy);
    }
  }
  policy.finish();
  return {
    policy,
    checkpoints,
    meanReward: cumE / cell.horizon,
    meanRealisedReward: cumR / cell.horizon,
    regret: cumRegret,
    effectiveSteps: null,
    /** Rewards given per privacy unit when the environment's rounds carry units, else null. */
    units: tally === null ? null : tally.result(),
  };
}
