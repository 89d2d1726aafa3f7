/**
 * A loaded decision log in columnar form (typed arrays, no per-decision objects), built by
 * `loadDecisionLog` or `decisionLogFromRecords`. Round t offers the arms
 * `armOffsets[t] .. armOffsets[t+1]`; arm j (global index) has features `features[j*d .. (j+1)*d)`.
 * Read-only by convention.
 */
export interface DecisionLog {
  /** Where the log came from (file path or a label), used in messages. */
  readonly source: string;
  /** Feature dimension d. */
  readonly dim: number;
  /** Number of decisions n. */
  readonly rounds: number;
  /** n + 1 offsets into the arm arrays. */
  readonly armOffsets: Int32Array;
  /** Features of every candidate arm, (total arms) x d row-major. */
  readonly features: Float64Array;
  /** Chosen arm of each decision (0-based within its round). */
  readonly chosen: Int32Array;
  /** Propensity of each decision; NaN when missing (accepted only with `allowMissingPropensity`, or with an inverse propensity). */
  readonly propensity: Float64Array;
  /** Logged unbiased inverse propensity of each decision (replaces 1/propensity in the weights); NaN when not logged. */
  readonly inversePropensity: Float64Array;
  /** `propensityKind` of each decision as a code: 0 not given, else 1 + index in `PROPENSITY_KINDS`. */
  readonly propensityKind: Int32Array;
  /** Display position of each decision's chosen item (`slot`), -1 where not logged; null when no line has one. */
  readonly slot: Int32Array | null;
  /** The privacy unit of each decision (`unit`), null where not logged; null when no line has one. */
  readonly units: readonly (string | null)[] | null;
  /** The exploration floor of each decision (`explorationFloor`), NaN where not logged; null when no line has one. */
  readonly explorationFloor: Float64Array | null;
  /** Logging probability of every arm (aligned with `features`), NaN where a line has none; null if no line has them. */
  readonly loggingProbabilities: Float64Array | null;
  /** Reward of each decision; NaN when not logged. */
  readonly reward: Float64Array;
  /** The decisions' event ids. */
  readonly eventIds: readonly string[];
  /** 1-based line of each decision in its file (the first row, for CSV). */
  readonly lines: Int32Array;
}
