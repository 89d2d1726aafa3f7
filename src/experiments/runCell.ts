/**
 * Runs one cell of an experiment: one policy, one budget, one hyperparameter setting, one seed.
 *
 * Full information: each round the environment offers K arms, the policy selects one, receives its
 * realised reward, and the runner adds the chosen arm's expected reward and its regret against the
 * best offered arm. Replay (Li et al. 2011): each logged step the policy selects among the logged
 * candidates; only if it picks the logged arm is the step effective and the policy updated with the
 * logged reward. Cost per round: the policy's select/update plus O(K d).
 */
import type { Environment } from '../envs/Environment.js';
import type { ReplayStream } from '../envs/ReplayStream.js';
import type { PolicyOptions } from '../policies/index.js';
import { createPolicy, isPolicyId, policyInfo } from '../policies/index.js';
import { cellKey } from './cellKey.js';
import { cacheVersion } from './codeFingerprint.js';
import { createEnvironment, createReplay, priorMeanOf, priorWeightOf } from './environmentRegistry.js';
import { evaluateReplay } from './evaluateReplay.js';
import type { CellConfig, CellResult, Checkpoint } from './types.js';
import { UnitTally } from './UnitTally.js';

function buildPolicy(cell: CellConfig, dim: number) {
  if (!isPolicyId(cell.policy))
    throw new RangeError(`runCell: unknown policy ${JSON.stringify(cell.policy)}.`);
  const options: Record<string, unknown> = { ...cell.params, dim, horizon: cell.horizon, seed: cell.seed };
  if (cell.params.priorMean === undefined) {
    const prior = priorMeanOf(cell.env);
    if (prior !== null) options.priorMean = prior;
  }
  // Research runs are reproducible: the noise stream is seeded by the cell's seed (research mode,
  // reported as privacy().noise = 'seeded'); a deployment leaves noiseSeed out and gets secure noise.
  if (policyInfo(cell.policy).isPrivate) options.noiseSeed = cell.seed;
  if (cell.params.lambda === undefined) {
    const b = cell.params.batchSize;
    const w = priorWeightOf(cell.env, cell.epsilon, cell.delta, typeof b === 'number' ? b : 300);
    if (w !== null) options.lambda = w;
  }
  if (cell.epsilon !== null) options.epsilon = cell.epsilon;
  if (cell.delta !== null) options.delta = cell.delta;
  return createPolicy(cell.policy, options as unknown as PolicyOptions);
}

function isCheckpoint(t: number, cell: CellConfig): boolean {
  return t % cell.checkpointEvery === 0 || t === cell.horizon;
}

function runFull(cell: CellConfig, env: Environment) {
  const policy = buildPolicy(cell, env.dim);
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
    units: tally === null ? null : tally.result(),
  };
}

function runReplay(cell: CellConfig, stream: ReplayStream) {
  if (stream.length < cell.horizon) {
    throw new RangeError(
      `runCell: horizon ${cell.horizon} exceeds the ${stream.length} logged steps of ${stream.name}.`,
    );
  }
  const policy = buildPolicy(cell, stream.dim);
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
  let environment: Readonly<Record<string, unknown>>;
  let out: ReturnType<typeof runFull> | ReturnType<typeof runReplay>;
  if (cell.protocol === 'full-information') {
    const env = createEnvironment(cell.env, cell.seed, cell.horizon);
    environment = env.describe();
    out = runFull(cell, env);
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
