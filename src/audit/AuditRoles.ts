/**
 * The three roles of an empirical privacy audit (after Google's DP-Auditorium), kept apart:
 * a mechanism under test ({@link AuditMechanism}: data in, one output sample out), a pair of
 * neighbouring inputs ({@link NeighbourPair}: one reward changed, everything public held fixed), and
 * a property tester (see `PropertyTester`) that turns two sample sets into a lower bound on epsilon.
 * Any mechanism can be audited by any tester; the tester never sees the mechanism's internals.
 */

/** The (epsilon, delta) guarantee a mechanism claims for one run, as its ledger reports it. */
export interface AuditClaim {
  readonly epsilon: number;
  readonly delta: number;
  /** zCDP rho of the run when every release is a Gaussian mechanism (then it is sqrt(2 rho)-GDP), else null. */
  readonly rho: number | null;
}

/** A mechanism under test: a dataset in, one output sample out. */
export interface AuditMechanism<D> {
  /** Short description, e.g. 'adaprivate-ts: one batch release'. */
  readonly name: string;
  /**
   * One independent run on `data`: `index` selects the run's randomness (distinct indices give
   * independent runs; the same index gives the same run when the mechanism is seeded).
   */
  run(data: D, index: number): Float64Array;
  /** The guarantee the mechanism claims for one run on data of this shape. */
  claim(): AuditClaim;
}

/** Two neighbouring inputs: they differ in one protected record, everything public is equal. */
export interface NeighbourPair<D> {
  readonly a: D;
  readonly b: D;
  /** What differs, e.g. 'reward of round 1: 0 vs 1'. */
  readonly description: string;
}
