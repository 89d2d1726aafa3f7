/**
 * Runs the evaluated policy over the logged contexts, in log order, and records its action
 * distribution at every round that has a reward.
 *
 * Learning semantics (documented in docs/evaluation.md):
 * - `'logged'` (default): at round t the policy's distribution pi_t(. | x_t) is read first, then the
 *   policy learns the logged round (the logged arm and its reward) as if the decision had been made
 *   elsewhere (`observe`: same batching, noise and ledger as `update`). The estimators then estimate
 *   (1/n) sum_t V(pi_t): the reward the policy would have earned at each round had it been deployed
 *   then, having learned from the same logs so far. pi_t depends only on rounds before t, so IPW and
 *   DR stay unbiased.
 * - `'frozen'`: the policy never learns (e.g. restored from a snapshot trained elsewhere).
 * Rounds without a reward are skipped (neither scored nor learned).
 */
import type { DecisionLog } from './DecisionLog.js';
import type { EvaluatedPolicy } from './EvaluatedPolicy.js';

/** How the evaluated policy learns while it runs over the log. */
export type LearningMode = 'logged' | 'frozen';

export interface RunPolicyOptions {
  /** Default `'logged'`. */
  readonly learning?: LearningMode;
  /** Called every `progressEvery` rounds with the round index. */
  readonly onProgress?: (round: number, rounds: number) => void;
  /** Default 10,000. */
  readonly progressEvery?: number;
  /**
   * Pass each logged round's unit (the log's `unit` field) to `learn`, for a policy with user-level
   * privacy (it bounds every unit's contributions); default false. Every round with a reward must
   * then have a unit.
   */
  readonly units?: boolean;
}

const SUM_TOLERANCE = 1e-6;

/**
 * @returns pi(a | x_t) for every arm of the log (aligned with `log.features`; zeros on rounds without a reward).
 * @example
 * const target = runPolicyOnLog(log, linearSoftmaxPolicy({ weights, temperature: 0.5 }), { learning: 'frozen' });
 */
export function runPolicyOnLog(
  log: DecisionLog,
  policy: EvaluatedPolicy,
  options: RunPolicyOptions = {},
): Float64Array {
  const learning = options.learning ?? 'logged';
  if (learning !== 'logged' && learning !== 'frozen') {
    throw new RangeError(`runPolicyOnLog: learning must be 'logged' or 'frozen'. Got ${String(learning)}.`);
  }
  if (learning === 'logged' && policy.learn === undefined) {
    throw new RangeError(
      "runPolicyOnLog: learning 'logged' needs a policy that can learn (learn is missing).",
    );
  }
  const withUnits = options.units === true;
  if (withUnits && log.units === null) {
    throw new RangeError(
      `${log.source}: a user-level policy needs the unit of every decision (the 'unit' field); no decision has one.`,
    );
  }
  const d = log.dim;
  const target = new Float64Array(log.armOffsets[log.rounds]!);
  const every = options.progressEvery ?? 10_000;
  for (let t = 0; t < log.rounds; t++) {
    if (options.onProgress !== undefined && t > 0 && t % every === 0) options.onProgress(t, log.rounds);
    const r = log.reward[t]!;
    if (Number.isNaN(r)) continue;
    const from = log.armOffsets[t]!;
    const k = log.armOffsets[t + 1]! - from;
    const out = target.subarray(from, from + k);
    policy.distribution(log.features.subarray(from * d, (from + k) * d), k, out);
    let s = 0;
    for (let a = 0; a < k; a++) {
      const p = out[a]!;
      if (!(p >= 0 && p <= 1)) {
        throw new RangeError(
          `${log.source}:${log.lines[t]}: the evaluated policy gave probability ${p} to arm ${a}.`,
        );
      }
      s += p;
    }
    if (Math.abs(s - 1) > SUM_TOLERANCE) {
      throw new RangeError(
        `${log.source}:${log.lines[t]}: the evaluated policy's probabilities sum to ${s}, not 1.`,
      );
    }
    if (learning === 'logged') {
      const c = from + log.chosen[t]!;
      const chosen = log.features.subarray(c * d, (c + 1) * d);
      if (withUnits) {
        const u = log.units![t];
        if (u === null || u === undefined) {
          throw new RangeError(
            `${log.source}:${log.lines[t]}: a user-level policy needs the unit of every decision (the 'unit' field); this decision has none.`,
          );
        }
        policy.learn!(chosen, r, u);
      } else policy.learn!(chosen, r);
    }
  }
  return target;
}
