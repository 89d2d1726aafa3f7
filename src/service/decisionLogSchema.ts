/**
 * The decision-log line (contract 4), defined once with TypeBox: the JSON Lines object that the
 * service's decision export writes (`GET /v1/models/{name}/decisions`) and that off-policy evaluation
 * reads (`loadDecisionLog`, `readJsonlDecisions`, `readCsvDecisions`, `decisionLogFromRecords`).
 *
 * Each field's rule is written once, below, and used by both schemas:
 * - {@link DecisionLogRecord}: what evaluation accepts; only `eventId`, `arms` and `chosen` are
 *   required, and the fields a log from elsewhere may carry (`slot`, `explorationFloor`, ...) are here.
 *   `validateDecisionRecord` checks every line with it, then the rules that relate fields (one feature
 *   dimension, `chosen` < number of arms, probabilities summing to 1, ...).
 * - {@link DecisionLogLine}: a line of the service's export, with the fields the service always writes
 *   required (it is documented in /openapi.json through `contract.ts`).
 *
 * This file imports TypeBox's tree-shakable builders only (not the HTTP contract), so the light
 * `adaprivate-core` package and its browser bundle carry this schema and not the service's.
 */
import type { Static } from 'typebox';
import * as T from 'typebox/type';

/** How a logged propensity was obtained (`propensityKind`). */
export type PropensityKind = 'exact' | 'monte-carlo' | 'geometric-resampling';

/** Every {@link PropensityKind}, in the order of the log's codes (code = index + 1; 0: not given). */
export const PROPENSITY_KINDS: readonly PropensityKind[] = Object.freeze([
  'exact',
  'monte-carlo',
  'geometric-resampling',
]);

/** The rule of each field of a decision-log line (one place for both schemas below). */
const field = {
  eventId: T.String({ minLength: 1, description: 'Unique id of the decision.' }),
  // read as any string (logs from elsewhere keep their own time format, e.g. '2019-11-24 00:00:01';
  // evaluation does not interpret it); the service writes ISO-8601 (DecisionLogLine's format)
  time: T.String({
    description:
      'Time of the decision: ISO-8601 in the service export; optional when evaluation reads a log.',
  }),
  arms: T.Array(
    T.Object({
      id: T.String({ description: "The arm's id." }),
      features: T.Array(T.Number(), {
        minItems: 1,
        description: 'Its d finite features as given (the same d on every line).',
      }),
    }),
    { minItems: 1, description: 'The candidate arms.' },
  ),
  chosen: T.Integer({ minimum: 0, description: '0-based index into `arms` of the chosen arm.' }),
  propensity: T.Number({
    exclusiveMinimum: 0,
    maximum: 1,
    description:
      'Logging probability of the chosen arm, in (0, 1] (evaluation: optional when `inversePropensity` is given).',
  }),
  probabilities: T.Array(T.Number({ minimum: 0, maximum: 1 }), {
    description:
      "Every arm's logging probability, in `arms` order (sums to 1; entry `chosen` equals `propensity`).",
  }),
  inversePropensity: T.Number({
    minimum: 1,
    description:
      'Unbiased estimate of 1/propensity, >= 1 (exact 1/p, or the geometric-resampling count of a Thompson-sampling model): what IPW, SNIPW and DR weight by. Absent on old decisions.',
  }),
  propensityKind: T.Union([T.Literal('exact'), T.Literal('monte-carlo'), T.Literal('geometric-resampling')], {
    description:
      "How the propensity was obtained: 'exact', 'monte-carlo' (an estimate whose inverse is biased) or 'geometric-resampling' (then `inversePropensity` is the unbiased count).",
  }),
  resamplingCap: T.Integer({
    minimum: 1,
    description: "The geometric-resampling cap (with propensityKind 'geometric-resampling').",
  }),
  slot: T.Integer({
    minimum: 0,
    description: 'The display position (slot) of the chosen item, 0 = top (position logs).',
  }),
  unit: T.String({
    minLength: 1,
    description:
      'The privacy unit (user or device id) when the rank or the reward named one; `evaluate --private --unit user` bounds and protects each unit together.',
  }),
  explorationFloor: T.Number({
    exclusiveMinimum: 0,
    maximum: 1,
    description:
      'The exploration floor gamma / K of the logging policy: every arm had at least this probability (at most 1/K), so no weight exceeds pi / floor.',
  }),
  reward: T.Number({
    minimum: 0,
    maximum: 1,
    description: 'Reward in [0, 1]; absent when it was not logged or never came.',
  }),
  model: T.String({ description: 'The model that decided.' }),
  modelVersion: T.Integer({ description: 'Releases committed when the decision was made.' }),
  cursor: T.String({
    description:
      'Paging cursor of this line: `?after=<cursor>` exports the lines after it (opaque decimal string).',
  }),
};

/**
 * A decision-log line as off-policy evaluation reads it (JSON Lines, the CSV form, in-memory
 * records). Other properties are allowed and ignored; a property whose value is null reads as absent.
 */
export const DecisionLogRecord = T.Object({
  eventId: field.eventId,
  time: T.Optional(field.time),
  arms: field.arms,
  chosen: field.chosen,
  propensity: T.Optional(field.propensity),
  probabilities: T.Optional(field.probabilities),
  inversePropensity: T.Optional(field.inversePropensity),
  propensityKind: T.Optional(field.propensityKind),
  resamplingCap: T.Optional(field.resamplingCap),
  slot: T.Optional(field.slot),
  unit: T.Optional(field.unit),
  explorationFloor: T.Optional(field.explorationFloor),
  reward: T.Optional(field.reward),
  model: T.Optional(field.model),
  modelVersion: T.Optional(field.modelVersion),
  cursor: T.Optional(field.cursor),
});
export type DecisionLogRecord = Static<typeof DecisionLogRecord>;

/**
 * One line of the service's NDJSON decision export: eventId, ISO time, arms with their features as
 * given, chosen index, propensity and every arm's probability when the decision answered them, the
 * logged inverse propensity (what
 * off-policy evaluation weights by) with its kind and cap, the exploration floor of a model that has
 * one, the reward only when the model logs rewards and one was recorded, the privacy unit when one was
 * named, model and version, and the line's paging cursor.
 */
export const DecisionLogLine = T.Object({
  eventId: field.eventId,
  time: T.String({ ...field.time, format: 'date-time' }),
  arms: T.Array(
    T.Object({
      id: field.arms.items.properties.id,
      features: T.Optional(
        T.Array(T.Number(), {
          minItems: 1,
          description:
            "Its d finite features as given (the same d on every line); only the chosen arm's for a model created with logCandidates: false (off-policy evaluation needs every arm's).",
        }),
      ),
    }),
    { minItems: 1, description: 'The candidate arms.' },
  ),
  chosen: field.chosen,
  // the service answers (and logs) probabilities only when the rank asked or the model sets
  // probabilitySamples: off-policy evaluation weights by `inversePropensity`
  propensity: T.Optional(field.propensity),
  probabilities: T.Optional(field.probabilities),
  inversePropensity: T.Optional(field.inversePropensity),
  propensityKind: T.Optional(field.propensityKind),
  resamplingCap: T.Optional(field.resamplingCap),
  explorationFloor: T.Optional(field.explorationFloor),
  reward: T.Optional(field.reward),
  unit: T.Optional(field.unit),
  model: field.model,
  modelVersion: field.modelVersion,
  cursor: field.cursor,
});
