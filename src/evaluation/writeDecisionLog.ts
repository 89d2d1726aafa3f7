/**
 * Writes decisions to a JSON Lines or CSV log file (the formats `loadDecisionLog` reads), streaming:
 * lines are buffered and written in blocks, never held whole. Node only.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { DecisionRecord } from './DecisionRecord.js';
import type { DecisionLogFormat } from './loadDecisionLog.js';

const csvText = (s: string): string => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/**
 * The CSV rows of one decision (one per arm), without the header.
 *
 * @example
 * decisionCsvRows({ eventId: 'e', arms: [{ id: 'a', features: [0.5] }], chosen: 0, propensity: 1, reward: 1 });
 * // returns ['e,,a,1,1,1,0.5']
 */
export function decisionCsvRows(r: DecisionRecord): string[] {
  return r.arms.map((arm, a) => {
    const chosen = a === r.chosen;
    const p = r.probabilities?.[a] ?? (chosen ? r.propensity : undefined);
    return [
      csvText(r.eventId),
      chosen && r.time !== undefined ? csvText(r.time) : '',
      csvText(arm.id),
      chosen ? '1' : '0',
      p === undefined ? '' : String(p),
      chosen && r.reward !== undefined ? String(r.reward) : '',
      ...arm.features.map(String),
    ].join(',');
  });
}

/**
 * The CSV header for feature dimension d.
 *
 * @example
 * decisionCsvHeader(2); // returns 'eventId,time,arm,chosen,propensity,reward,x1,x2'
 */
export function decisionCsvHeader(d: number): string {
  return [
    'eventId',
    'time',
    'arm',
    'chosen',
    'propensity',
    'reward',
    ...Array.from({ length: d }, (_, j) => `x${j + 1}`),
  ].join(',');
}

/**
 * @returns the number of decisions written.
 * @example
 * writeDecisionLog('logs.jsonl', syntheticDecisions({ seed: 1, rounds: 5000 }), 'jsonl'); // returns 5000
 */
export function writeDecisionLog(
  path: string,
  records: Iterable<DecisionRecord>,
  format: DecisionLogFormat,
  onProgress?: (written: number) => void,
): number {
  const fd = openSync(path, 'w');
  let buffer: string[] = [];
  let count = 0;
  const flush = () => {
    if (buffer.length > 0) writeSync(fd, `${buffer.join('\n')}\n`);
    buffer = [];
  };
  try {
    for (const r of records) {
      if (format === 'csv') {
        if (count === 0) buffer.push(decisionCsvHeader(r.arms[0]?.features.length ?? 0));
        buffer.push(...decisionCsvRows(r));
      } else buffer.push(JSON.stringify(r));
      count++;
      if (count % 1000 === 0) {
        flush();
        onProgress?.(count);
      }
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return count;
}
