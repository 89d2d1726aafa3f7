/**
 * The Li et al. (2011) replay evaluator: runs `policy` over `steps` logged steps of `stream`. Each
 * step the policy selects among the logged candidates; when it picks the logged arm the step is
 * effective and the policy learns the logged reward (`update`), otherwise the round is abandoned
 * (`discard`) and nothing of it is learned. The estimate of the policy's value is the mean logged
 * reward over effective steps, unbiased when the log was collected by a uniformly random policy
 * (about steps / K steps are effective). Cost per step: the policy's select/update plus O(K d).
 */
import type { ReplayStream } from '../envs/ReplayStream.js';
import type { Policy } from '../policies/Policy.js';
import type { Checkpoint, UnitRewardCounts } from './types.js';
import { UnitTally } from './UnitTally.js';

/** What `evaluateReplay` returns. */
export interface ReplayEvaluation {
  /** Logged steps replayed. */
  readonly steps: number;
  /** Steps where the policy picked the logged arm (the only ones it learned from). */
  readonly effectiveSteps: number;
  /** Sum of the logged rewards over effective steps. */
  readonly cumulativeReward: number;
  /** The replay estimate: cumulativeReward / effectiveSteps (0 when no step was effective). */
  readonly ctr: number;
  /** One checkpoint every `checkpointEvery` steps and at the last step. */
  readonly checkpoints: readonly Checkpoint[];
  /** Rewards learned per privacy unit, when the stream's steps carry units (`stream.unit`); else null. */
  readonly units: UnitRewardCounts | null;
}

/**
 * Replays `steps` logged steps (default: the whole stream) and calls `policy.finish()` at the end.
 *
 * @example
 * const env = createSyntheticEnvironment({}, 1);
 * const log = replayFromEnvironment(env, 5000, 1);
 * const policy = createPolicy('lints', { dim: log.dim, horizon: 5000, seed: 1 });
 * evaluateReplay(policy, log).effectiveSteps; // returns about 1000 (5000 steps / 5 arms)
 */
export function evaluateReplay(
  policy: Policy,
  stream: ReplayStream,
  options: { readonly steps?: number; readonly checkpointEvery?: number } = {},
): ReplayEvaluation {
  const steps = options.steps ?? stream.length;
  if (!Number.isSafeInteger(steps) || steps <= 0 || steps > stream.length) {
    throw new RangeError(
      `evaluateReplay: steps must be a positive integer <= the ${stream.length} logged steps of ${stream.name}. Got ${steps}.`,
    );
  }
  const every = options.checkpointEvery ?? steps;
  if (!Number.isSafeInteger(every) || every <= 0) {
    throw new RangeError(`evaluateReplay: checkpointEvery must be a positive integer. Got ${every}.`);
  }
  const k = stream.armsPerRound;
  const features = new Float64Array(k * stream.dim);
  const checkpoints: Checkpoint[] = [];
  let cumR = 0;
  let effective = 0;
  const tally = stream.unit === undefined ? null : new UnitTally();
  for (let t = 1; t <= steps; t++) {
    const logged = stream.nextStep(features);
    const arm = policy.select(features, k);
    if (arm === logged) {
      const r = stream.loggedReward();
      if (tally === null) policy.update(r);
      else {
        const unit = stream.unit!();
        tally.add(unit);
        policy.update(r, unit);
      }
      cumR += r;
      effective++;
    } else policy.discard(); // the logged arm differed: the round is not counted nor learned
    if (t % every === 0 || t === steps) {
      checkpoints.push({
        round: t,
        cumulativeReward: cumR,
        cumulativeExpectedReward: null,
        cumulativeRegret: null,
        effectiveSteps: effective,
        ctr: effective > 0 ? cumR / effective : null,
      });
    }
  }
  policy.finish();
  return {
    steps,
    effectiveSteps: effective,
    cumulativeReward: cumR,
    ctr: effective > 0 ? cumR / effective : 0,
    checkpoints,
    units: tally === null ? null : tally.result(),
  };
}
