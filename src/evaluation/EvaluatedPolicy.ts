/**
 * What the evaluation needs from the policy under evaluation, kept to two functions so that any
 * source of an action distribution plugs in: a library policy (`evaluatedFromPolicy`), a known
 * stationary policy (`linearSoftmaxPolicy`), or a caller's own model.
 */

/**
 * The evaluated policy's action distribution at one round: writes pi(a | x) for the `k` arms whose
 * features are `features[0 .. k*d)` (row-major) into `out[0 .. k)`; the values sum to 1.
 */
export type ActionDistribution = (features: Float64Array, k: number, out: Float64Array) => void;

export interface EvaluatedPolicy {
  /** The distribution at the policy's current state. */
  readonly distribution: ActionDistribution;
  /**
   * Learns one logged round (the logged arm's d features and its reward); absent for a frozen policy.
   * A library policy learns through `observe` (same batching, noise and ledger as `update`). `unit`:
   * the round's unit (user or device id), given only with `runPolicyOnLog(.., { units: true })`, for a
   * policy with user-level privacy.
   */
  readonly learn?: (chosen: Float64Array, reward: number, unit?: string) => void;
}
