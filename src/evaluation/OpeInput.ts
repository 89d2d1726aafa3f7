/**
 * The common input of every off-policy estimator (after Open Bandit Pipeline's `obp/ope`, ideas
 * only): per round t = 0..n-1 the logged reward, the logged arm, its logging propensity, and the
 * evaluated policy's action distribution over that round's arms (plus a reward model's predictions
 * for the direct method and doubly robust). Round t's arms are `offsets[t] .. offsets[t+1]` of the
 * per-arm arrays. Build it from a log with `opeInputFromLog`.
 */
export interface OpeInput {
  /** r_t in [0, 1], length n. */
  readonly rewards: Float64Array;
  /** a_t, the logged arm's index within its round, length n. */
  readonly actions: Int32Array;
  /** p_t = logging probability of a_t, in (0, 1], length n. */
  readonly propensities: Float64Array;
  /**
   * Optional logged unbiased estimates of 1/p_t (geometric resampling), length n; where present and
   * not NaN they replace 1/p_t in every importance weight: w_t = pi(a_t | x_t) x inversePropensities[t].
   */
  readonly inversePropensities?: Float64Array;
  /** n + 1 offsets into the per-arm arrays. */
  readonly offsets: Int32Array;
  /** pi(a | x_t) of the evaluated policy for every arm of every round (each round sums to 1). */
  readonly target: Float64Array;
  /** q(x_t, a), a reward model's prediction for every arm (direct method, doubly robust); optional. */
  readonly rewardModel?: Float64Array;
}

/**
 * Checks the shapes of an input (lengths agree); throws a RangeError naming the array otherwise.
 *
 * @example
 * checkOpeInput(input, true); // throws if input.rewardModel is missing
 */
export function checkOpeInput(input: OpeInput, needsModel = false): number {
  const n = input.rewards.length;
  const name = 'off-policy estimator';
  if (n === 0) throw new RangeError(`${name}: the input has no rounds (rewards is empty).`);
  if (input.inversePropensities !== undefined && input.inversePropensities.length !== n) {
    throw new RangeError(
      `${name}: inversePropensities must have n = ${n} entries. Got ${input.inversePropensities.length}.`,
    );
  }
  if (input.actions.length !== n || input.propensities.length !== n || input.offsets.length !== n + 1) {
    throw new RangeError(
      `${name}: rewards, actions and propensities must have n = ${n} entries and offsets n + 1. Got ${input.actions.length}, ${input.propensities.length}, ${input.offsets.length}.`,
    );
  }
  const arms = input.offsets[n]!;
  if (input.target.length !== arms) {
    throw new RangeError(
      `${name}: target must have one probability per arm (${arms}). Got ${input.target.length}.`,
    );
  }
  if (needsModel && input.rewardModel?.length !== arms) {
    throw new RangeError(
      `${name}: rewardModel must have one prediction per arm (${arms}). Got ${input.rewardModel === undefined ? 'none' : input.rewardModel.length}.`,
    );
  }
  return n;
}
