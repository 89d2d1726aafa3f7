/**
 * One logged decision, exactly the JSON Lines object of the decision log (contract 4; the HTTP
 * service's decision export writes the same): the candidate arms with their features, the chosen
 * arm, the logging policy's probability of that choice (its propensity) and the reward. The type is
 * the schema's (`DecisionLogRecord` in src/service/decisionLogSchema.ts, where every field's rule and
 * meaning is written once).
 *
 * @example
 * const r: DecisionRecord = { eventId: 'e1', time: '2026-01-01T00:00:00.000Z',
 *   arms: [{ id: 'a', features: [1, 0] }, { id: 'b', features: [0, 1] }],
 *   chosen: 1, propensity: 0.5, probabilities: [0.5, 0.5], reward: 1 };
 */
import type { DecisionLogRecord } from '../service/decisionLogSchema.js';
import type { Frozen } from '../service/Frozen.js';

export { PROPENSITY_KINDS, type PropensityKind } from '../service/decisionLogSchema.js';

export type DecisionRecord = Frozen<DecisionLogRecord>;
