/**
 * Reads a target file (JSON Lines, one `{eventId, probabilities}` object per line; blank lines
 * skipped) for {@link targetFromRecords}, streaming line by line. Node only.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { DataFormatError } from '../data/DataFormatError.js';
import type { DecisionLog } from './DecisionLog.js';
import { targetFromRecords } from './targetFromRecords.js';

/**
 * @example
 * const target = await loadTarget('target.jsonl', log); // pi(a | x_t) aligned with log's arms
 */
export async function loadTarget(path: string, log: DecisionLog): Promise<Float64Array> {
  const stream = createReadStream(path);
  const rl = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const records: { record: unknown; line: number }[] = [];
  let line = 0;
  try {
    for await (const text of rl) {
      line++;
      if (text.trim() === '') continue;
      try {
        records.push({ record: JSON.parse(text), line });
      } catch (err) {
        throw new DataFormatError(path, line, `not valid JSON (${(err as Error).message}).`);
      }
    }
  } finally {
    rl.close();
    stream.destroy();
  }
  return targetFromRecords(log, records, path);
}
