/**
 * A full-information contextual-bandit environment: every round it offers K arms with d features
 * and knows the expected reward of each, so exact regret can be computed.
 *
 * Environment randomness comes from its own seeded stream, so every policy run with the same
 * environment seed faces exactly the same rounds (common random numbers).
 */
export interface Environment {
  readonly name: string;
  /** Feature dimension d. */
  readonly dim: number;
  /** Arms offered per round, K. */
  readonly armsPerRound: number;
  /** Number of rounds this environment can serve (Infinity for synthetic ones). */
  readonly horizon: number;
  /**
   * Advances to the next round: writes the K x d features (row-major) into `features` and the
   * expected reward of each arm into `expected` (length K). Allocation-free.
   */
  nextRound(features: Float64Array, expected: Float64Array): void;
  /** Draws the realised reward in [0, 1] of arm `arm` in the current round. */
  reward(arm: number): number;
  /**
   * The privacy unit (a user id) of the current round, for environments whose rounds belong to
   * units (e.g. `SyntheticUsersEnvironment`); absent when rounds carry no unit.
   */
  unit?(): string;
  /** JSON-safe description of the environment (recorded in results). */
  describe(): Readonly<Record<string, unknown>>;
}
