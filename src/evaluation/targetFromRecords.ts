/**
 * A policy from elsewhere, given as its action distribution at every logged decision: one record
 * per decision, `{ "eventId": "...", "probabilities": [p_1, ..., p_K] }` with one probability per
 * candidate arm of that decision, in the log's arm order (values in [0, 1] summing to 1 within
 * 1e-6). The result is the `target` array the estimators take (aligned with the log's arms), so the
 * policy is evaluated as a fixed ('frozen') distribution: its probabilities do not depend on the
 * logged rewards.
 */
import { DataFormatError } from '../data/DataFormatError.js';
import type { DecisionLog } from './DecisionLog.js';
import { hasPropensity } from './opeInputFromLog.js';
import { PROBABILITY_TOLERANCE } from './validateDecisionRecord.js';

/** One line of a target file. */
export interface TargetRecord {
  readonly eventId: string;
  readonly probabilities: readonly number[];
}

/**
 * @param records - the target's records with the 1-based line each came from.
 * @param source - the file name used in messages.
 * @returns pi(a | x_t) for every arm of the log; every decision with a reward and a propensity must
 * have a record (others may be absent: zeros).
 * @example
 * targetFromRecords(log, [{ record: { eventId: 'e1', probabilities: [0.2, 0.8] }, line: 1 }], 'target.jsonl');
 * // returns Float64Array [0.2, 0.8] for a one-decision, two-arm log
 */
export function targetFromRecords(
  log: DecisionLog,
  records: Iterable<{ readonly record: unknown; readonly line: number }>,
  source: string,
): Float64Array {
  const index = new Map<string, number>();
  for (let t = 0; t < log.rounds; t++) index.set(log.eventIds[t]!, t);
  const target = new Float64Array(log.armOffsets[log.rounds]!);
  const seen = new Uint8Array(log.rounds);
  for (const { record, line } of records) {
    const o = record as Partial<TargetRecord> | null;
    if (typeof o !== 'object' || o === null || typeof o.eventId !== 'string') {
      throw new DataFormatError(
        source,
        line,
        'a target record must be an object with a string eventId and probabilities.',
      );
    }
    const t = index.get(o.eventId);
    if (t === undefined) {
      throw new DataFormatError(
        source,
        line,
        `eventId ${JSON.stringify(o.eventId)} is not a decision of ${log.source}.`,
      );
    }
    if (seen[t] === 1)
      throw new DataFormatError(source, line, `eventId ${JSON.stringify(o.eventId)} appears twice.`);
    seen[t] = 1;
    const from = log.armOffsets[t]!;
    const k = log.armOffsets[t + 1]! - from;
    const p = o.probabilities;
    if (!Array.isArray(p) || p.length !== k) {
      throw new DataFormatError(
        source,
        line,
        `probabilities must be an array of ${k} numbers (one per candidate arm of decision ${JSON.stringify(o.eventId)}, in the log's order). Got ${Array.isArray(p) ? `${p.length} values` : JSON.stringify(p)}.`,
      );
    }
    let sum = 0;
    p.forEach((v, a) => {
      if (typeof v !== 'number' || !(v >= 0 && v <= 1)) {
        throw new DataFormatError(
          source,
          line,
          `probabilities[${a}] must be a number in [0, 1]. Got ${JSON.stringify(v)}.`,
        );
      }
      sum += v;
      target[from + a] = v;
    });
    if (Math.abs(sum - 1) > PROBABILITY_TOLERANCE) {
      throw new DataFormatError(
        source,
        line,
        `probabilities must sum to 1 (within ${PROBABILITY_TOLERANCE}). Got ${sum}.`,
      );
    }
  }
  for (let t = 0; t < log.rounds; t++) {
    if (seen[t] === 0 && !Number.isNaN(log.reward[t]!) && hasPropensity(log, t)) {
      throw new DataFormatError(
        source,
        1,
        `decision ${JSON.stringify(log.eventIds[t])} (${log.source}:${log.lines[t]}) has no target probabilities: every evaluated decision needs them.`,
      );
    }
  }
  return target;
}
