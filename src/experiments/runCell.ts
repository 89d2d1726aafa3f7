/**
 * Runs one cell of an experiment: one policy, one budget, one hyperparameter setting, one seed.
 *
 * Full information: each round the environment offers K arms, the policy selects one, receives its
 * realised reward, and the runner adds the chosen arm's expected reward and its regret against the
 * best offered arm. Replay (Li et al. 2011): each logged step the policy selects among the logged
 * candidates; only if it picks the logged arm is the step effective and the policy updated with the
 * logged reward. Cost per round: the policy's select/update plus O(K d).
 */
import type { ReplayStream } from '../envs/ReplayStream.js';
import { withKernelArenaScope } from '../linalg/index.js';
import { cellEnvironment } from './cellEnvironment.js';
import { cellKey } from './cellKey.js';
import { cacheVersion } from './codeFingerprint.js';
import { createReplay, priorMeanOf, priorWeightOf } from './environmentRegistry.js';
import { evaluateReplay } from './evaluateReplay.js';
import { type CellPrior, cellPolicy, runFullInformation } from './runFullInformation.js';
import type { CellConfig, CellResult } from './types.js';

/** The warm-start prior of the cell's environment (real data), from the registry; null for synthetic. */
function cellPrior(cell: CellConfig): CellPrior {
  const b = cell.params.batchSize;
  return {
    mean: cell.params.priorMean === undefined ? priorMeanOf(cell.env) : null,
    // tuning the weight replays the validation part: only when the params do not set lambda
    weight:
      cell.params.lambda === undefined
        ? priorWeightOf(cell.env, cell.epsilon, cell.delta, typeof b === 'number' ? b : 300)
        : null,
  };
}

function runReplay(cell: CellConfig, stream: ReplayStream) {
  if (stream.length < cell.horizon) {
    throw new RangeError(
      `runCell: horizon ${cell.horizon} exceeds the ${stream.length} logged steps of ${stream.name}.`,
    );
  }
  const policy = cellPolicy(cell, stream.dim, cellPrior(cell));
  const out = evaluateReplay(policy, stream, { steps: cell.horizon, checkpointEvery: cell.checkpointEvery });
  return {
    policy,
    checkpoints: out.checkpoints,
    meanReward: out.ctr,
    meanRealisedReward: out.ctr,
    regret: null,
    effectiveSteps: out.effectiveSteps,
    units: out.units,
  };
}

/**
 * Runs a cell to completion and returns its deterministic result.
 *
 * @example
 * runCell({ env: { kind: 'synthetic', dim: 5, arms: 20, armsPerRound: 5, thetaNorm: 2, link: 'logistic' },
 *   protocol: 'full-information', policy: 'lints', epsilon: null, delta: null, params: {},
 *   horizon: 100, seed: 1, checkpointEvery: 50 }).checkpoints.length; // returns 2
 */
export function runCell(cell: CellConfig, version: string = cacheVersion()): CellResult {
  // the policy, its factors and scratch live only for this cell: their kernel memory is returned at
  // its end (a worker runs thousands of cells; left to the collector, the memory ran out)
  return withKernelArenaScope(() => runCellScoped(cell, version));
}

function runCellScoped(cell: CellConfig, version: string): CellResult {
  let environment: Readonly<Record<string, unknown>>;
  let out: ReturnType<typeof runFullInformation> | ReturnType<typeof runReplay>;
  if (cell.protocol === 'full-information') {
    // a plain synthetic environment is its seed's shared trace (the same rounds, drawn once per thread)
    const env = cellEnvironment(cell);
    environment = env.describe();
    out = runFullInformation(cell, env, cellPrior(cell));
  } else {
    const stream = createReplay(cell.env, cell.horizon, cell.seed);
    environment = stream.describe();
    out = runReplay(cell, stream);
  }
  return {
    key: cellKey(cell, version),
    config: cell,
    version,
    seed: cell.seed,
    environment,
    policyConfig: out.policy.config,
    checkpoints: out.checkpoints,
    meanReward: out.meanReward,
    meanRealisedReward: out.meanRealisedReward,
    regret: out.regret,
    effectiveSteps: out.effectiveSteps,
    privacy: cell.epsilon === null ? null : out.policy.privacy(),
    clippedCount: out.policy.clippedCount,
    ...(out.units === null ? {} : { units: out.units }),
  };
}
