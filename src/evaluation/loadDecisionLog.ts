/**
 * Reads a decision log file (JSON Lines or CSV, see docs/evaluation.md) into a columnar
 * {@link DecisionLog}, streaming: the file is parsed line by line and never held as text. Node only.
 */
import { createReadStream } from 'node:fs';
import { DataFormatError } from '../data/DataFormatError.js';
import type { DecisionLog } from './DecisionLog.js';
import { DecisionLogBuilder } from './DecisionLogBuilder.js';
import { readCsvDecisions } from './readCsvDecisions.js';
import { type ReadDecisionsOptions, readJsonlDecisions } from './readJsonlDecisions.js';

/** The two file forms of a decision log. */
export type DecisionLogFormat = 'jsonl' | 'csv';

export interface LoadDecisionLogOptions extends ReadDecisionsOptions {
  /** Default: from the extension (`.csv` is CSV; anything else JSON Lines). */
  readonly format?: DecisionLogFormat;
  /** Called every `progressEvery` decisions with the count so far (progress lines). */
  readonly onProgress?: (decisions: number) => void;
  /** Default 100,000. */
  readonly progressEvery?: number;
}

/**
 * The format a path implies: `'csv'` for `.csv` (any case), otherwise `'jsonl'`.
 *
 * @example
 * decisionLogFormatOf('logs/export.CSV'); // returns 'csv'
 */
export function decisionLogFormatOf(path: string): DecisionLogFormat {
  return /\.csv$/i.test(path) ? 'csv' : 'jsonl';
}

/**
 * Loads and validates a decision log; refuses the first bad decision with its line number.
 *
 * @example
 * const log = await loadDecisionLog('logs.jsonl');
 * log.rounds; // returns the number of decisions, e.g. 5000
 */
export async function loadDecisionLog(
  path: string,
  options: LoadDecisionLogOptions = {},
): Promise<DecisionLog> {
  const format = options.format ?? decisionLogFormatOf(path);
  const stream = createReadStream(path);
  const reader =
    format === 'csv' ? readCsvDecisions(stream, path, options) : readJsonlDecisions(stream, path, options);
  const builder = new DecisionLogBuilder();
  const every = options.progressEvery ?? 100_000;
  try {
    for await (const { record, line } of reader) {
      builder.add(record, line);
      if (options.onProgress !== undefined && builder.rounds % every === 0)
        options.onProgress(builder.rounds);
    }
  } finally {
    stream.destroy();
  }
  if (builder.rounds === 0) throw new DataFormatError(path, 1, 'the log has no decisions.');
  return builder.build(path);
}
