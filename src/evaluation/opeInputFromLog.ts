/**
 * Turns a log and the evaluated policy's per-arm distribution (aligned with the log's arms) into the
 * estimators' {@link OpeInput}, keeping the rounds that have both a reward and a propensity.
 */
import type { DecisionLog } from './DecisionLog.js';
import type { OpeInput } from './OpeInput.js';

/**
 * Indices of the rounds the estimators use: a reward and a propensity (or a logged inverse
 * propensity) both logged.
 *
 * @example
 * evaluableRounds(log).length; // returns log.rounds for a complete log
 */
export function evaluableRounds(log: DecisionLog): Int32Array {
  const out: number[] = [];
  for (let t = 0; t < log.rounds; t++) {
    if (!Number.isNaN(log.reward[t]!) && hasPropensity(log, t)) out.push(t);
  }
  return Int32Array.from(out);
}

/** Whether decision t has a propensity or a logged inverse propensity. */
export function hasPropensity(log: DecisionLog, t: number): boolean {
  return !Number.isNaN(log.propensity[t]!) || !Number.isNaN(log.inversePropensity[t]!);
}

/**
 * @param target - pi(a | x_t) for every arm of the log (length `log.armOffsets[log.rounds]`).
 * @param rewardModel - optional q(x_t, a) for every arm of the log.
 * @param only - optional: the rounds to use, in log order (a subset of the evaluable rounds, e.g. the
 *   rows a user-level contribution bound kept); default: every evaluable round.
 * @example
 * const input = opeInputFromLog(log, target, crossFitRewardModel(log));
 * input.rewards.length; // returns the number of evaluable rounds
 */
export function opeInputFromLog(
  log: DecisionLog,
  target: Float64Array,
  rewardModel?: Float64Array,
  only?: Int32Array,
): OpeInput {
  const totalArms = log.armOffsets[log.rounds]!;
  if (target.length !== totalArms) {
    throw new RangeError(
      `opeInputFromLog: target must have one entry per logged arm (${totalArms}). Got ${target.length}.`,
    );
  }
  if (rewardModel !== undefined && rewardModel.length !== totalArms) {
    throw new RangeError(
      `opeInputFromLog: rewardModel must have one entry per logged arm (${totalArms}). Got ${rewardModel.length}.`,
    );
  }
  const rounds = only ?? evaluableRounds(log);
  const n = rounds.length;
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const t = rounds[i]!;
    offsets[i + 1] = offsets[i]! + log.armOffsets[t + 1]! - log.armOffsets[t]!;
  }
  const arms = offsets[n]!;
  const tgt = new Float64Array(arms);
  const q = rewardModel === undefined ? undefined : new Float64Array(arms);
  const rewards = new Float64Array(n);
  const actions = new Int32Array(n);
  const propensities = new Float64Array(n);
  let anyInverse = false;
  for (let i = 0; i < n && !anyInverse; i++) anyInverse = !Number.isNaN(log.inversePropensity[rounds[i]!]!);
  const inverse = anyInverse ? new Float64Array(n) : undefined;
  for (let i = 0; i < n; i++) {
    const t = rounds[i]!;
    const from = log.armOffsets[t]!;
    const to = log.armOffsets[t + 1]!;
    tgt.set(target.subarray(from, to), offsets[i]!);
    if (q !== undefined) q.set(rewardModel!.subarray(from, to), offsets[i]!);
    rewards[i] = log.reward[t]!;
    actions[i] = log.chosen[t]!;
    const ip = log.inversePropensity[t]!;
    // a decision with only an inverse propensity: p = 1/ip (used only where no inverse is logged)
    propensities[i] = Number.isNaN(log.propensity[t]!) ? 1 / ip : log.propensity[t]!;
    if (inverse !== undefined) inverse[i] = ip;
  }
  return {
    rewards,
    actions,
    propensities,
    offsets,
    target: tgt,
    ...(inverse === undefined ? {} : { inversePropensities: inverse }),
    ...(q === undefined ? {} : { rewardModel: q }),
  };
}
