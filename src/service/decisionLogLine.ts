/**
 * One stored decision as a line of the decision log (contract 4, read by off-policy evaluation):
 * eventId, ISO time, arms with their features as given (only the chosen arm's when the model was
 * created with `logCandidates: false`), chosen index, propensity (probability of the
 * chosen arm) and every arm's probability (when the decision answered them), the logged inverse propensity (`inversePropensity`,
 * `propensityKind`, `resamplingCap`; what off-policy evaluation weights by), the reward only when the
 * model logs rewards and one was recorded, the privacy unit when one was named, model and model
 * version, and the line's paging cursor (`?after=<cursor>` continues after it).
 */
import type { DecisionRow } from '../store/index.js';
import type { DecisionLogLine } from './contract.js';

export function decisionLogLine(r: DecisionRow, logRewards: boolean): DecisionLogLine {
  const d = r.dim;
  // a model that does not log candidates stored the chosen arm's features only (d values)
  const all = r.features.length === r.armIds.length * d;
  const arms = r.armIds.map((id, a) =>
    all || a === r.chosen
      ? { id, features: Array.from(r.features.subarray(all ? a * d : 0, all ? (a + 1) * d : d)) }
      : { id },
  );
  const base = {
    eventId: r.eventId,
    time: new Date(r.time).toISOString(),
    arms,
    chosen: r.chosen,
    ...(r.probabilities === null
      ? {}
      : { propensity: r.probabilities[r.chosen]!, probabilities: r.probabilities }),
    ...(r.inversePropensity === undefined
      ? {}
      : {
          inversePropensity: r.inversePropensity.value,
          propensityKind: r.inversePropensity.kind,
          ...(r.inversePropensity.cap === null ? {} : { resamplingCap: r.inversePropensity.cap }),
        }),
  };
  const tail = {
    ...(r.unit != null ? { unit: r.unit } : {}),
    model: r.model,
    modelVersion: r.modelVersion,
    cursor: String(r.seq),
  };
  return logRewards && r.reward !== null ? { ...base, reward: r.reward, ...tail } : { ...base, ...tail };
}
