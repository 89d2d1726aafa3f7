/**
 * Thrown when a policy whose privacy calibration depends on the planned horizon T (JDP-LinUCB's
 * tree depth, zCDP-Episodic's episode bound, DGS-LinUCB's per-step budget rho / T) is asked for a
 * round beyond T. Its guarantee covers T learned rounds only, so round T + 1 is refused rather than
 * silently frozen. `scores` and `probabilities` keep working (they read released statistics only).
 *
 * @example
 * try { policy.select(features, 5); } catch (e) { if (e instanceof HorizonExceededError) e.horizon; } // returns T
 */
export class HorizonExceededError extends Error {
  /** The planned horizon T the policy was calibrated for. */
  readonly horizon: number;
  /** Rounds already learned (equal to `horizon` when the error is thrown). */
  readonly rounds: number;

  constructor(policyName: string, horizon: number, rounds: number, what: string) {
    super(
      `${policyName}: ${what} refused: the policy has learned ${rounds} rounds and its privacy calibration covers horizon = ${horizon} rounds only (create it with a larger horizon).`,
    );
    this.name = 'HorizonExceededError';
    this.horizon = horizon;
    this.rounds = rounds;
  }
}
