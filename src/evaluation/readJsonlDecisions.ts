/**
 * Streams the decisions of a JSON Lines log (one object per line, contract 4), validating each and
 * yielding it with its 1-based line number. Blank lines are skipped. Reads line by line: memory does
 * not grow with the file.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { DataFormatError } from '../data/DataFormatError.js';
import type { DecisionRecord } from './DecisionRecord.js';
import { validateDecisionRecord } from './validateDecisionRecord.js';

/** A validated decision and where it was read. */
export interface LocatedDecision {
  readonly record: DecisionRecord;
  readonly line: number;
}

/** Options of the log readers. */
export interface ReadDecisionsOptions {
  /** Accept decisions without a propensity. Default false (refused with the line number). */
  readonly allowMissingPropensity?: boolean;
}

/**
 * @param input - a readable byte or text stream (e.g. `createReadStream(path)`).
 * @param file - the name used in error messages.
 * @example
 * for await (const { record, line } of readJsonlDecisions(createReadStream('logs.jsonl'), 'logs.jsonl')) {
 *   // record.chosen, record.propensity, record.reward ...
 * }
 */
export async function* readJsonlDecisions(
  input: Readable,
  file: string,
  options: ReadDecisionsOptions = {},
): AsyncGenerator<LocatedDecision> {
  const rl = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  let dim: number | null = null;
  try {
    for await (const text of rl) {
      line++;
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        throw new DataFormatError(file, line, `not valid JSON (${(err as Error).message}).`);
      }
      const record = validateDecisionRecord(
        value,
        { file, line },
        { dim, allowMissingPropensity: options.allowMissingPropensity === true },
      );
      dim = record.arms[0]!.features.length;
      yield { record, line };
    }
  } finally {
    rl.close();
  }
}
