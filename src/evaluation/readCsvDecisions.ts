/**
 * Streams the decisions of a CSV log ("long" form: one row per candidate arm, the rows of one
 * decision consecutive), parsed by csv-parse. Columns (header required, any order):
 *
 * - `eventId` (required): the decision's id; consecutive rows with the same id form one decision.
 * - `x1` .. `xd` (required): the arm's features.
 * - `chosen` (required): 1 on the logged arm's row, 0 (or empty) on the others.
 * - `propensity` (required on the chosen row): the logging probability of that row's arm; when every
 *   row of a decision has one they form the decision's `probabilities`.
 * - `reward` (optional, chosen row only): in [0, 1]; empty when not logged.
 * - `arm`, `time`, `model`, `modelVersion` (optional).
 * - `inversePropensity`, `propensityKind`, `resamplingCap`, `slot`, `unit`, `explorationFloor`
 *   (optional, chosen row only; see
 *   `DecisionRecord`).
 *
 * Each decision goes through the same validation as a JSON Lines one, with the line of the row
 * concerned in the message.
 */
import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { DataFormatError } from '../data/DataFormatError.js';
import type { DecisionRecord } from './DecisionRecord.js';
import type { LocatedDecision, ReadDecisionsOptions } from './readJsonlDecisions.js';
import { validateDecisionRecord } from './validateDecisionRecord.js';

interface Row {
  readonly cells: readonly string[];
  readonly line: number;
}

interface Columns {
  readonly eventId: number;
  readonly chosen: number;
  readonly propensity: number;
  readonly reward: number;
  readonly arm: number;
  readonly time: number;
  readonly model: number;
  readonly modelVersion: number;
  /** Optional chosen-row columns, by field name. */
  readonly extra: readonly { readonly name: string; readonly col: number; readonly numeric: boolean }[];
  readonly features: readonly number[];
}

/** Optional columns that belong on the chosen row (name, numeric). */
const CHOSEN_ROW: readonly (readonly [string, boolean])[] = [
  ['inversePropensity', true],
  ['propensityKind', false],
  ['resamplingCap', true],
  ['slot', true],
  ['unit', false],
  ['explorationFloor', true],
];
const KNOWN = new Set([
  'eventId',
  'chosen',
  'propensity',
  'reward',
  'arm',
  'time',
  'model',
  'modelVersion',
  ...CHOSEN_ROW.map(([n]) => n),
]);

function columnsOf(header: readonly string[], file: string): Columns {
  const at = (name: string) => header.indexOf(name);
  const features: number[] = [];
  const xs = new Map<number, number>();
  header.forEach((h, i) => {
    const m = /^x([1-9][0-9]*)$/.exec(h);
    if (m !== null) xs.set(Number(m[1]), i);
    else if (!KNOWN.has(h)) {
      throw new DataFormatError(
        file,
        1,
        `unknown column ${JSON.stringify(h)}. Columns: eventId, chosen, propensity, reward, x1..xd, and optionally arm, time, model, modelVersion, ${CHOSEN_ROW.map(([n]) => n).join(', ')}.`,
      );
    }
  });
  for (let j = 1; j <= xs.size; j++) {
    const i = xs.get(j);
    if (i === undefined)
      throw new DataFormatError(file, 1, `feature columns must be x1..x${xs.size}; x${j} is missing.`);
    features.push(i);
  }
  for (const name of ['eventId', 'chosen', 'propensity']) {
    if (at(name) < 0) throw new DataFormatError(file, 1, `the header must have a ${name} column.`);
  }
  if (features.length === 0)
    throw new DataFormatError(file, 1, 'the header must have feature columns x1..xd.');
  return {
    eventId: at('eventId'),
    chosen: at('chosen'),
    propensity: at('propensity'),
    reward: at('reward'),
    arm: at('arm'),
    time: at('time'),
    model: at('model'),
    modelVersion: at('modelVersion'),
    extra: CHOSEN_ROW.filter(([n]) => at(n) >= 0).map(([name, numeric]) => ({
      name,
      col: at(name),
      numeric,
    })),
    features,
  };
}

function numberCell(row: Row, col: number, name: string, file: string): number | undefined {
  if (col < 0) return undefined;
  const s = (row.cells[col] ?? '').trim();
  if (s === '') return undefined;
  const v = Number(s);
  if (!Number.isFinite(v))
    throw new DataFormatError(file, row.line, `${name} must be a number. Got ${JSON.stringify(s)}.`);
  return v;
}

function textCell(row: Row, col: number): string | undefined {
  if (col < 0) return undefined;
  const s = row.cells[col] ?? '';
  return s === '' ? undefined : s;
}

function assemble(
  rows: readonly Row[],
  c: Columns,
  file: string,
): { value: Record<string, unknown>; armLines: number[] } {
  const first = rows[0]!;
  let chosen = -1;
  const probs: (number | undefined)[] = [];
  const arms: { id: string; features: number[] }[] = [];
  let reward: number | undefined;
  rows.forEach((row, a) => {
    const flag = numberCell(row, c.chosen, 'chosen', file);
    if (flag !== undefined && flag !== 0 && flag !== 1) {
      throw new DataFormatError(file, row.line, `chosen must be 1 (the logged arm) or 0. Got ${flag}.`);
    }
    if (flag === 1) {
      if (chosen >= 0) {
        throw new DataFormatError(
          file,
          row.line,
          `decision ${JSON.stringify(row.cells[c.eventId])} has a second row with chosen = 1.`,
        );
      }
      chosen = a;
      reward = numberCell(row, c.reward, 'reward', file);
    } else if (numberCell(row, c.reward, 'reward', file) !== undefined) {
      throw new DataFormatError(
        file,
        row.line,
        'reward belongs on the chosen row only (chosen = 1); leave it empty here.',
      );
    }
    probs.push(numberCell(row, c.propensity, 'propensity', file));
    arms.push({
      id: textCell(row, c.arm) ?? String(a),
      features: c.features.map((col, j) => {
        const v = numberCell(row, col, `x${j + 1}`, file);
        if (v === undefined)
          throw new DataFormatError(file, row.line, `x${j + 1} must be a number. Got an empty cell.`);
        return v;
      }),
    });
  });
  if (chosen < 0) {
    throw new DataFormatError(
      file,
      first.line,
      `decision ${JSON.stringify(first.cells[c.eventId])} has no row with chosen = 1.`,
    );
  }
  const given = probs.filter((p) => p !== undefined).length;
  if (given > 1 && given < probs.length) {
    throw new DataFormatError(
      file,
      first.line,
      'propensity must be given on the chosen row only, or on every row of the decision (the logging probability of each arm).',
    );
  }
  const chosenRow = rows[chosen]!;
  const value: Record<string, unknown> = {
    eventId: first.cells[c.eventId],
    arms,
    chosen,
    propensity: probs[chosen],
  };
  if (given === probs.length && probs.length > 1) value.probabilities = probs;
  if (reward !== undefined) value.reward = reward;
  const time = textCell(chosenRow, c.time);
  if (time !== undefined) value.time = time;
  const model = textCell(chosenRow, c.model);
  if (model !== undefined) value.model = model;
  const version = numberCell(chosenRow, c.modelVersion, 'modelVersion', file);
  if (version !== undefined) value.modelVersion = version;
  for (const e of c.extra) {
    const v = e.numeric ? numberCell(chosenRow, e.col, e.name, file) : textCell(chosenRow, e.col);
    if (v !== undefined) value[e.name] = v;
    rows.forEach((row, a) => {
      if (a !== chosen && (row.cells[e.col] ?? '').trim() !== '') {
        throw new DataFormatError(
          file,
          row.line,
          `${e.name} belongs on the chosen row only (chosen = 1); leave it empty here.`,
        );
      }
    });
  }
  return { value, armLines: rows.map((r) => r.line) };
}

/**
 * @param input - a readable stream of the CSV file.
 * @param file - the name used in error messages.
 * @example
 * for await (const { record, line } of readCsvDecisions(createReadStream('logs.csv'), 'logs.csv')) {
 *   // record.arms.length candidate arms; record.chosen; record.propensity
 * }
 */
export async function* readCsvDecisions(
  input: Readable,
  file: string,
  options: ReadDecisionsOptions = {},
): AsyncGenerator<LocatedDecision> {
  const parser = input.pipe(parse({ info: true, skip_empty_lines: true, bom: true }));
  let columns: Columns | null = null;
  let group: Row[] = [];
  const seen = new Set<string>();
  let dim: number | null = null;
  const flush = (): LocatedDecision | null => {
    if (group.length === 0 || columns === null) return null;
    const { value, armLines } = assemble(group, columns, file);
    const line = group[0]!.line;
    group = [];
    const record: DecisionRecord = validateDecisionRecord(
      value,
      { file, line, armLines },
      { dim, allowMissingPropensity: options.allowMissingPropensity === true },
    );
    dim = record.arms[0]!.features.length;
    return { record, line };
  };
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const row: Row = { cells: item.record, line: item.info.lines };
      if (columns === null) {
        columns = columnsOf(row.cells, file);
        continue;
      }
      const id = row.cells[columns.eventId] ?? '';
      if (id === '') throw new DataFormatError(file, row.line, 'eventId must not be empty.');
      const current = group[0]?.cells[columns.eventId];
      if (current !== id) {
        const done = flush();
        if (done !== null) yield done;
        if (seen.has(id)) {
          throw new DataFormatError(
            file,
            row.line,
            `the rows of decision ${JSON.stringify(id)} must be consecutive (it appeared earlier).`,
          );
        }
        seen.add(id);
      }
      group.push(row);
    }
  } catch (err) {
    if (err instanceof CsvError) {
      const line = (err as CsvError & { lines?: number }).lines ?? 0;
      throw new DataFormatError(file, line, `not valid CSV (${err.message}).`);
    }
    throw err;
  }
  const last = flush();
  if (last !== null) yield last;
  if (columns === null) throw new DataFormatError(file, 1, 'the file is empty (a header row is required).');
}
