/**
 * Turns a log and the evaluated policy's per-arm distribution (aligned with the log's arms) into the
 * estimators' {@link OpeInput}, keeping the rounds that have both a reward and a propensity.
 */
import type { DecisionLog } from './DecisionLog.js';
import type { OpeInput } from './OpeInput.js';

/**
 * Indices of the rounds the estimators use: reward and propensity both logged.
 *
 * @example
 * evaluableRounds(log).length; // returns log.rounds for a complete log
 */
export function evaluableRounds(log: DecisionLog): Int32Array {
  const out: number[] = [];
  for (let t = 0; t < log.rounds; t++) {
    if (!Number.isNaN(log.reward[t]!) && !Number.isNaN(log.propensity[t]!)) out.push(t);
  }
  return Int32Array.from(out);
}

/**
 * @param target - pi(a | x_t) for every arm of the log (length `log.armOffsets[log.rounds]`).
 * @param rewardModel - optional q(x_t, a) for every arm of the log.
 * @example
 * const input = opeInputFromLog(log, target, crossFitRewardModel(log));
 * input.rewards.length; // returns the number of evaluable rounds
 */
export function opeInputFromLog(
  log: DecisionLog,
  target: Float64Array,
  rewardModel?: Float64Array,
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
  const rounds = evaluableRounds(log);
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
  for (let i = 0; i < n; i++) {
    const t = rounds[i]!;
    const from = log.armOffsets[t]!;
    const to = log.armOffsets[t + 1]!;
    tgt.set(target.subarray(from, to), offsets[i]!);
    if (q !== undefined) q.set(rewardModel!.subarray(from, to), offsets[i]!);
    rewards[i] = log.reward[t]!;
    actions[i] = log.chosen[t]!;
    propensities[i] = log.propensity[t]!;
  }
  return q === undefined
    ? { rewards, actions, propensities, offsets, target: tgt }
    : { rewards, actions, propensities, offsets, target: tgt, rewardModel: q };
}
