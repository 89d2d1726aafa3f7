/**
 * A logged-data stream for Li et al. (2011) replay evaluation: each step offers K candidate arms
 * and reveals only the reward of the arm a uniformly random logging policy chose. A step counts
 * (is "effective") only when the evaluated policy picks the logged arm; then, and only then, the
 * policy is updated with the logged reward. The replay estimator of the policy's value is the
 * mean reward over effective steps (unbiased for uniformly random logging).
 */
export interface ReplayStream {
  readonly name: string;
  /** Feature dimension d. */
  readonly dim: number;
  /** Candidate arms per step, K. */
  readonly armsPerRound: number;
  /** Number of logged steps available. */
  readonly length: number;
  /**
   * Advances to the next logged step: writes the K x d candidate features (row-major) into
   * `features` and returns the index (0..K-1) of the logged arm. Allocation-free.
   */
  nextStep(features: Float64Array): number;
  /** The logged reward in [0, 1] of the current step's logged arm. */
  loggedReward(): number;
  /**
   * The privacy unit (a user id) of the current step, for logs whose steps belong to units (e.g. a
   * ratings log: the rating's user); absent when steps carry no unit.
   */
  unit?(): string;
  /** JSON-safe description (recorded in results). */
  describe(): Readonly<Record<string, unknown>>;
}
