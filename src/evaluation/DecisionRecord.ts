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
export interface DecisionRecord {
  /** Unique id of the decision. */
  readonly eventId: string;
  /** ISO-8601 time of the decision (optional in the CSV form). */
  readonly time?: string;
  /** The candidate arms: an id and d finite features each (the same d on every line). */
  readonly arms: readonly { readonly id: string; readonly features: readonly number[] }[];
  /** 0-based index into `arms` of the arm the logging policy chose. */
  readonly chosen: number;
  /** Logging probability of the chosen arm, in (0, 1]. */
  readonly propensity?: number;
  /** Optional: the logging probability of every arm (sums to 1; entry `chosen` equals `propensity`). */
  readonly probabilities?: readonly number[];
  /** Reward in [0, 1]; absent when it was not logged or never came. */
  readonly reward?: number;
  /** Optional: the model that decided. */
  readonly model?: string;
  /** Optional: the model version that decided. */
  readonly modelVersion?: number;
}
