/**
 * Builds a {@link DecisionLog} from decision objects already in memory (tests, a service's export
 * fetched over HTTP, the synthetic generator), with the same validation as the file loaders.
 */
import type { DecisionLog } from './DecisionLog.js';
import { DecisionLogBuilder } from './DecisionLogBuilder.js';
import type { ReadDecisionsOptions } from './readJsonlDecisions.js';
import { validateDecisionRecord } from './validateDecisionRecord.js';

/**
 * Record i is reported as line i + 1 in error messages.
 *
 * @example
 * const log = decisionLogFromRecords([{ eventId: 'e', arms: [{ id: 'a', features: [1] }], chosen: 0, propensity: 1, reward: 1 }]);
 * log.rounds; // returns 1
 */
export function decisionLogFromRecords(
  records: Iterable<unknown>,
  source = 'records',
  options: ReadDecisionsOptions = {},
): DecisionLog {
  const builder = new DecisionLogBuilder();
  let line = 0;
  for (const value of records) {
    line++;
    const record = validateDecisionRecord(
      value,
      { file: source, line },
      { dim: builder.dim, allowMissingPropensity: options.allowMissingPropensity === true },
    );
    builder.add(record, line);
  }
  return builder.build(source);
}
