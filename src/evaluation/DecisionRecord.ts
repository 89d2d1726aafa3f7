/**
 * One logged decision, exactly the JSON Lines object of the decision log (contract 4; the HTTP
 * service's decision export writes the same): the candidate arms with their features, the chosen
 * arm, the logging policy's probability of that choice (its propensity) and the reward.
 *
 * @example
 * const r: DecisionRecord = { eventId: 'e1', time: '2026-01-01T00:00:00.000Z',
 *   arms: [{ id: 'a', features: [1, 0] }, { id: 'b', features: [0, 1] }],
 *   chosen: 1, propensity: 0.5, probabilities: [0.5, 0.5], reward: 1 };
 */
/** How a logged propensity was obtained (the decision log's `propensityKind`). */
export type PropensityKind = 'exact' | 'monte-carlo' | 'geometric-resampling';

/** Every {@link PropensityKind}, in the order of the log's codes (code = index + 1; 0: not given). */
export const PROPENSITY_KINDS: readonly PropensityKind[] = Object.freeze([
  'exact',
  'monte-carlo',
  'geometric-resampling',
]);

export interface DecisionRecord {
  /** Unique id of the decision. */
  readonly eventId: string;
  /** ISO-8601 time of the decision (optional in the CSV form). */
  readonly time?: string;
  /** The candidate arms: an id and d finite features each (the same d on every line). */
  readonly arms: readonly { readonly id: string; readonly features: readonly number[] }[];
  /** 0-based index into `arms` of the arm the logging policy chose. */
  readonly chosen: number;
  /** Logging probability of the chosen arm, in (0, 1] (optional when `inversePropensity` is given). */
  readonly propensity?: number;
  /**
   * Optional: an unbiased estimate of 1 / (logging probability of the chosen arm), >= 1, used by
   * IPW, SNIPW and DR in place of 1 / propensity (the service logs the geometric-resampling count
   * of its Thompson-sampling models here).
   */
  readonly inversePropensity?: number;
  /**
   * Optional: how the propensity was obtained: 'exact', 'monte-carlo' (an estimate whose inverse is
   * biased), 'geometric-resampling' (then `inversePropensity` is the unbiased count).
   */
  readonly propensityKind?: PropensityKind;
  /** Optional: the cap of the geometric resampling (positive integer). */
  readonly resamplingCap?: number;
  /** Optional: the display position (slot) of the chosen item, a non-negative integer (0 = top). */
  readonly slot?: number;
  /**
   * Optional: the privacy unit of the decision (the user or device id; the service logs it), a
   * non-empty string; `evaluate --private --unit user` bounds and protects each unit's rows.
   */
  readonly unit?: string;
  /**
   * Optional: the exploration floor of the logging policy at this decision, gamma / K in (0, 1]: every
   * arm had at least this probability (a mixture with uniform), so no weight exceeds pi / floor.
   */
  readonly explorationFloor?: number;
  /** Optional: the logging probability of every arm (sums to 1; entry `chosen` equals `propensity`). */
  readonly probabilities?: readonly number[];
  /** Reward in [0, 1]; absent when it was not logged or never came. */
  readonly reward?: number;
  /** Optional: the model that decided. */
  readonly model?: string;
  /** Optional: the model version that decided. */
  readonly modelVersion?: number;
}
