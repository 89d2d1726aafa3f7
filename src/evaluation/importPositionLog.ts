/**
 * Converts a logged-feedback CSV of the common shape (one row per shown item, as the Open Bandit
 * Dataset publishes it) and an item table into decisions of our log format (contract 4), for
 * `adaprivate logs import`. Columns of the events CSV (header required, any order; the first name
 * found of each list is used):
 *
 * - item: `item_id` | `item` (required): the shown item, an id of the item table;
 * - position: `position` | `slot` (required): the display position; positions are mapped to slots
 *   0, 1, .. by their sorted distinct values (1, 2, 3 -> 0, 1, 2);
 * - reward: `click` | `reward` (required): in [0, 1];
 * - propensity: `propensity_score` | `propensity` (required): the logging probability of the shown
 *   item at that position, in (0, 1];
 * - time: `timestamp` | `time` (optional);
 * - unit: `user_id` | `unit` (optional): the privacy unit (`evaluate --private --unit user`);
 * - user features: every column whose name starts with `user_feature` (optional);
 * - a column with an empty name (a row index) is ignored; any other column is refused by name.
 *
 * The item table: `item_id` (required) and every column whose name starts with `item_feature`.
 *
 * Every row becomes one decision: its candidates are all items of the table (in table order), each
 * with features [item features, user features of the row]; numeric columns are used as numbers and
 * any other column is one-hot encoded over its sorted distinct values (at most `maxCategories`).
 * The whole input is held in memory (two passes: the categories first).
 */
import { parse } from 'csv-parse/sync';
import { DataFormatError } from '../data/DataFormatError.js';
import type { DecisionRecord } from './DecisionRecord.js';

export interface ImportPositionLogOptions {
  /** Most distinct values of a non-numeric column (one-hot width); default 64. */
  readonly maxCategories?: number;
}

/** What the import made, with the feature layout. */
export interface ImportedLog {
  readonly decisions: readonly DecisionRecord[];
  /** Name of every feature, in order (`item_feature_1=abc` for one-hot ones). */
  readonly featureNames: readonly string[];
  /** The slot of each distinct position value. */
  readonly positions: readonly { readonly position: string; readonly slot: number }[];
  readonly items: number;
}

type Encoder = {
  readonly name: string;
  readonly width: number;
  encode(v: string, out: number[]): void;
  readonly names: string[];
};

function parseCsv(text: string, file: string): string[][] {
  try {
    return parse(text, { relax_column_count: false, skip_empty_lines: true }) as string[][];
  } catch (err) {
    const line = (err as { lines?: number }).lines ?? 1;
    throw new DataFormatError(file, line, `not a valid CSV file: ${(err as Error).message}`);
  }
}

/** A column encoder: numbers as they are, else one-hot over the sorted distinct values. */
function encoderFor(name: string, values: readonly string[], file: string, max: number): Encoder {
  const numeric = values.every((v) => v.trim() !== '' && Number.isFinite(Number(v)));
  if (numeric) {
    return { name, width: 1, names: [name], encode: (v, out) => out.push(Number(v)) };
  }
  const distinct = [...new Set(values)].sort();
  if (distinct.length > max) {
    throw new DataFormatError(
      file,
      1,
      `column ${name} is not numeric and has ${distinct.length} distinct values, more than the one-hot limit ${max} (raise --max-categories, or drop the column).`,
    );
  }
  const index = new Map(distinct.map((v, i) => [v, i]));
  return {
    name,
    width: distinct.length,
    names: distinct.map((v) => `${name}=${v}`),
    encode: (v, out) => {
      const at = index.get(v)!;
      for (let i = 0; i < distinct.length; i++) out.push(i === at ? 1 : 0);
    },
  };
}

/**
 * @example
 * const { decisions } = importPositionLog(eventsCsvText, 'events.csv', itemsCsvText, 'items.csv');
 * decisions[0]; // { eventId: 'events.csv:2', arms: [...all items], chosen: 3, propensity: 0.0125, slot: 0, reward: 0, ... }
 */
export function importPositionLog(
  eventsText: string,
  eventsFile: string,
  itemsText: string,
  itemsFile: string,
  options: ImportPositionLogOptions = {},
): ImportedLog {
  const max = options.maxCategories ?? 64;
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new RangeError(`importPositionLog: maxCategories must be a positive integer. Got ${max}.`);
  }
  // item table
  const itemRows = parseCsv(itemsText, itemsFile);
  if (itemRows.length < 2)
    throw new DataFormatError(itemsFile, 1, 'the item table needs a header and at least one item.');
  const itemHeader = itemRows[0]!.map((h) => h.trim());
  const itemId = itemHeader.indexOf('item_id');
  if (itemId < 0) {
    throw new DataFormatError(
      itemsFile,
      1,
      `the item table needs an item_id column. Got columns ${itemHeader.join(', ')}.`,
    );
  }
  const itemCols: number[] = [];
  itemHeader.forEach((h, i) => {
    if (i === itemId || h === '') return;
    if (!h.startsWith('item_feature')) {
      throw new DataFormatError(
        itemsFile,
        1,
        `unknown column ${JSON.stringify(h)}: the item table has item_id and item_feature* columns.`,
      );
    }
    itemCols.push(i);
  });
  const items = itemRows.slice(1);
  const itemIndex = new Map<string, number>();
  items.forEach((row, i) => {
    const id = row[itemId]!;
    if (itemIndex.has(id))
      throw new DataFormatError(itemsFile, i + 2, `item_id ${JSON.stringify(id)} appears twice.`);
    itemIndex.set(id, i);
  });
  const itemEncoders = itemCols.map((c) =>
    encoderFor(
      itemHeader[c]!,
      items.map((r) => r[c]!),
      itemsFile,
      max,
    ),
  );
  const itemFeatures = items.map((row) => {
    const out: number[] = [];
    for (const [j, e] of itemEncoders.entries()) e.encode(row[itemCols[j]!]!, out);
    return out;
  });
  // events
  const rows = parseCsv(eventsText, eventsFile);
  if (rows.length < 2)
    throw new DataFormatError(eventsFile, 1, 'the events file needs a header and at least one row.');
  const header = rows[0]!.map((h) => h.trim());
  const find = (names: readonly string[], required: boolean): number => {
    for (const n of names) {
      const i = header.indexOf(n);
      if (i >= 0) return i;
    }
    if (required) {
      throw new DataFormatError(
        eventsFile,
        1,
        `missing column: one of ${names.join(' | ')} is required. Got columns ${header.join(', ')}.`,
      );
    }
    return -1;
  };
  const col = {
    item: find(['item_id', 'item'], true),
    position: find(['position', 'slot'], true),
    reward: find(['click', 'reward'], true),
    propensity: find(['propensity_score', 'propensity'], true),
    time: find(['timestamp', 'time'], false),
    unit: find(['user_id', 'unit'], false),
  };
  const used = new Set(Object.values(col));
  const userCols: number[] = [];
  header.forEach((h, i) => {
    if (used.has(i) || h === '') return;
    if (h.startsWith('user_feature')) userCols.push(i);
    else {
      throw new DataFormatError(
        eventsFile,
        1,
        `unknown column ${JSON.stringify(h)}: the events file has item_id, position, click, propensity_score, timestamp, user_id and user_feature* columns (drop the others first).`,
      );
    }
  });
  const body = rows.slice(1);
  const userEncoders = userCols.map((c) =>
    encoderFor(
      header[c]!,
      body.map((r) => r[c]!),
      eventsFile,
      max,
    ),
  );
  const positionValues = [...new Set(body.map((r) => r[col.position]!.trim()))].sort((a, b) => {
    const x = Number(a);
    const y = Number(b);
    return Number.isFinite(x) && Number.isFinite(y) ? x - y : a < b ? -1 : a > b ? 1 : 0;
  });
  const slotOf = new Map(positionValues.map((p, i) => [p, i]));
  const decisions: DecisionRecord[] = [];
  body.forEach((row, i) => {
    const line = i + 2;
    const fail = (why: string): never => {
      throw new DataFormatError(eventsFile, line, why);
    };
    const item = itemIndex.get(row[col.item]!);
    if (item === undefined)
      fail(`item_id ${JSON.stringify(row[col.item])} is not in the item table ${itemsFile}.`);
    const reward = Number(row[col.reward]);
    if (row[col.reward]!.trim() === '' || !(reward >= 0 && reward <= 1)) {
      fail(`${header[col.reward]} must be a number in [0, 1]. Got ${JSON.stringify(row[col.reward])}.`);
    }
    const propensity = Number(row[col.propensity]);
    if (row[col.propensity]!.trim() === '' || !(propensity > 0 && propensity <= 1)) {
      fail(
        `${header[col.propensity]} must be a number in (0, 1]. Got ${JSON.stringify(row[col.propensity])}.`,
      );
    }
    const user: number[] = [];
    for (const [j, e] of userEncoders.entries()) e.encode(row[userCols[j]!]!, user);
    const unit = col.unit >= 0 ? row[col.unit]! : '';
    decisions.push({
      eventId: `${eventsFile}:${line}`,
      ...(col.time >= 0 && row[col.time]! !== '' ? { time: row[col.time]! } : {}),
      arms: items.map((r, a) => ({ id: r[itemId]!, features: [...itemFeatures[a]!, ...user] })),
      chosen: item!,
      propensity,
      slot: slotOf.get(row[col.position]!.trim())!,
      reward,
      ...(unit === '' ? {} : { unit }),
    });
  });
  const featureNames = [...itemEncoders.flatMap((e) => e.names), ...userEncoders.flatMap((e) => e.names)];
  if (featureNames.length === 0) {
    throw new DataFormatError(
      itemsFile,
      1,
      'no features: the item table has no item_feature* column and the events no user_feature* column.',
    );
  }
  return {
    decisions,
    featureNames,
    positions: positionValues.map((position, slot) => ({ position, slot })),
    items: items.length,
  };
}
