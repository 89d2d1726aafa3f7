import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { DataFormatError } from './DataFormatError.js';
import { GrowableTypedArray } from './GrowableTypedArray.js';
import { parseNumberBytes } from './parseNumberBytes.js';
import type { RatingsData } from './RatingsData.js';
import { type RatingsFormat, ratingsFormatInfo } from './RatingsFormat.js';

/** Options of {@link loadRatings}. */
export interface LoadRatingsOptions {
  /** The file layout. Required (see `guessRatingsFormat` for official file names). */
  readonly format: RatingsFormat;
  /**
   * false (default): the first malformed row fails the load with file name and line number.
   * true: malformed rows are skipped and counted in `badRows`.
   */
  readonly skipBadRows?: boolean;
  /** Called now and then with (bytes read, file size). */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
}

const MOVIELENS_HEADER = 'userId,movieId,rating,timestamp';
const MAX_FIELDS = 128;
const JESTER_MISSING = 99;

/**
 * Streams a ratings file into typed arrays (SPEC section 5): the file is read in chunks of 1 MiB
 * and parsed byte by byte, so neither its text nor per-rating objects are ever held in memory
 * (ml-25m: about 300 MB of typed arrays for 25M ratings). User and item ids are re-indexed densely.
 *
 * Malformed input (wrong number of columns, non-numeric or out-of-range values, a missing header,
 * a Jester row whose count disagrees with its ratings, a truncated last line) throws a
 * {@link DataFormatError} naming the file and the line, unless `skipBadRows` is set.
 *
 * Cost: O(file size) time; memory 12 bytes per rating (plus growth slack).
 * @example
 * const data = await loadRatings('ml-latest-small/ratings.csv', { format: 'movielens-csv' });
 * data.count; // returns 100836
 */
export async function loadRatings(file: string, options: LoadRatingsOptions): Promise<RatingsData> {
  const { format } = options;
  const info = ratingsFormatInfo(format);
  const skipBadRows = options.skipBadRows ?? false;
  const name = basename(file);
  const totalBytes = (await stat(file)).size;

  const capacity = Math.max(1024, Math.ceil(totalBytes / (format === 'jester-1' ? 4 : 24)));
  const users = new GrowableTypedArray(Int32Array, capacity);
  const items = new GrowableTypedArray(Int32Array, capacity);
  const ratings = new GrowableTypedArray(Float32Array, capacity);
  const userIndex = new Map<number, number>();
  const itemIndex = new Map<number, number>();
  const userIds = new GrowableTypedArray(Int32Array, 1024);
  const itemIds = new GrowableTypedArray(Int32Array, 1024);
  let lastUserId = Number.NaN;
  let lastUser = -1;

  const starts = new Int32Array(MAX_FIELDS + 1);
  const ends = new Int32Array(MAX_FIELDS + 1);
  const row = new Float64Array(100);
  let lineNo = 0;
  let badRows = 0;
  const badRowExamples: string[] = [];

  const denseUser = (id: number): number => {
    if (id === lastUserId) return lastUser;
    let u = userIndex.get(id);
    if (u === undefined) {
      u = userIds.length;
      userIndex.set(id, u);
      userIds.push(id);
    }
    lastUserId = id;
    lastUser = u;
    return u;
  };
  const denseItem = (id: number): number => {
    let i = itemIndex.get(id);
    if (i === undefined) {
      i = itemIds.length;
      itemIndex.set(id, i);
      itemIds.push(id);
    }
    return i;
  };

  /** Splits line [s, e) into fields; returns the field count (MAX_FIELDS + 1 means "too many"). */
  const split = (buf: Uint8Array, s: number, e: number): number => {
    let n = 0;
    if (format === 'jester-2') {
      let i = s;
      while (i < e) {
        while (i < e && (buf[i] === 32 || buf[i] === 9)) i++;
        if (i >= e) break;
        if (n > MAX_FIELDS) return n;
        starts[n] = i;
        while (i < e && buf[i] !== 32 && buf[i] !== 9) i++;
        ends[n++] = i;
      }
      return n;
    }
    const sep = format === 'movielens-100k' ? 9 : format === 'movielens-dat' ? 58 : 44;
    const width = format === 'movielens-dat' ? 2 : 1;
    let fieldStart = s;
    for (let i = s; i < e; i++) {
      if (buf[i] === sep && (width === 1 || buf[i + 1] === sep)) {
        if (n >= MAX_FIELDS) return MAX_FIELDS + 1;
        starts[n] = fieldStart;
        ends[n++] = i;
        i += width - 1;
        fieldStart = i + 1;
      }
    }
    starts[n] = fieldStart;
    ends[n++] = e;
    return n;
  };

  const text = (buf: Uint8Array, s: number, e: number): string =>
    Buffer.from(buf.buffer, buf.byteOffset + s, Math.min(e - s, 40)).toString('latin1');

  /** Parses one line; returns an error reason or undefined. */
  const parseLine = (buf: Uint8Array, s: number, e: number): string | undefined => {
    if (format === 'movielens-csv' && lineNo === 1) {
      const header = text(buf, s, e).trim();
      if (header !== MOVIELENS_HEADER) {
        return `expected the header ${JSON.stringify(MOVIELENS_HEADER)}. Got ${JSON.stringify(header)}.`;
      }
      return undefined;
    }
    const n = split(buf, s, e);
    if (format === 'jester-1') return parseJester1(buf, n);
    const expected = format === 'jester-2' ? 3 : 4;
    if (n !== expected) {
      return `expected ${expected} columns. Got ${n > MAX_FIELDS ? `more than ${MAX_FIELDS}` : n}.`;
    }
    const userId = parseNumberBytes(buf, starts[0]!, ends[0]!);
    const itemId = parseNumberBytes(buf, starts[1]!, ends[1]!);
    const rating = parseNumberBytes(buf, starts[2]!, ends[2]!);
    if (!Number.isInteger(userId) || userId < 0 || userId > 2147483647) {
      return `user id must be a non-negative integer. Got ${JSON.stringify(text(buf, starts[0]!, ends[0]!))}.`;
    }
    if (!Number.isInteger(itemId) || itemId < 0 || itemId > 2147483647) {
      return `item id must be a non-negative integer. Got ${JSON.stringify(text(buf, starts[1]!, ends[1]!))}.`;
    }
    if (!(rating >= info.ratingMin && rating <= info.ratingMax)) {
      return `rating must be a number in [${info.ratingMin}, ${info.ratingMax}]. Got ${JSON.stringify(text(buf, starts[2]!, ends[2]!))}.`;
    }
    if (expected === 4 && !Number.isInteger(parseNumberBytes(buf, starts[3]!, ends[3]!))) {
      return `timestamp must be an integer. Got ${JSON.stringify(text(buf, starts[3]!, ends[3]!))}.`;
    }
    users.push(denseUser(userId));
    items.push(denseItem(itemId));
    ratings.push(rating);
    return undefined;
  };

  const parseJester1 = (buf: Uint8Array, n: number): string | undefined => {
    if (n !== 101)
      return `expected 101 columns (count + 100 jokes). Got ${n > MAX_FIELDS ? `more than ${MAX_FIELDS}` : n}.`;
    const count = parseNumberBytes(buf, starts[0]!, ends[0]!);
    if (!Number.isInteger(count) || count < 0 || count > 100) {
      return `column 1 (number of jokes rated) must be an integer in [0, 100]. Got ${JSON.stringify(text(buf, starts[0]!, ends[0]!))}.`;
    }
    let rated = 0;
    for (let j = 1; j <= 100; j++) {
      const v = parseNumberBytes(buf, starts[j]!, ends[j]!);
      row[j - 1] = v;
      if (v === JESTER_MISSING) continue;
      if (!(v >= -10 && v <= 10)) {
        return `column ${j + 1} (joke ${j}) must be a rating in [-10, 10] or 99 (not rated). Got ${JSON.stringify(text(buf, starts[j]!, ends[j]!))}.`;
      }
      rated++;
    }
    if (rated !== count) return `column 1 says ${count} jokes were rated, but the row has ${rated} ratings.`;
    for (let j = 1; j <= 100; j++) {
      const v = row[j - 1]!;
      if (v === JESTER_MISSING) continue;
      users.push(denseUser(lineNo));
      items.push(denseItem(j));
      ratings.push(v);
    }
    return undefined;
  };

  const handle = (buf: Uint8Array, s: number, e: number, truncated: boolean): void => {
    lineNo++;
    if (e > s && buf[e - 1] === 13) e--;
    let blank = true;
    for (let i = s; i < e; i++) {
      if (buf[i] !== 32 && buf[i] !== 9) {
        blank = false;
        break;
      }
    }
    if (blank) return;
    let reason = parseLine(buf, s, e);
    if (reason !== undefined && truncated)
      reason = `${reason} (the file may be truncated: its last line has no line end)`;
    if (reason === undefined) return;
    if (!skipBadRows) throw new DataFormatError(name, lineNo, reason);
    badRows++;
    if (badRowExamples.length < 10) badRowExamples.push(`${name}:${lineNo}: ${reason}`);
  };

  const stream = createReadStream(file, { highWaterMark: 1 << 20 });
  let carry: Buffer | undefined;
  let bytesRead = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytesRead += chunk.length;
    const buf = carry === undefined ? chunk : Buffer.concat([carry, chunk]);
    let s = 0;
    for (let i = buf.indexOf(10, 0); i !== -1; i = buf.indexOf(10, s)) {
      handle(buf, s, i, false);
      s = i + 1;
    }
    carry = s < buf.length ? buf.subarray(s) : undefined;
    options.onProgress?.(bytesRead, totalBytes);
  }
  if (carry !== undefined && carry.length > 0) handle(carry, 0, carry.length, true);
  if (format === 'movielens-csv' && lineNo === 0) throw new DataFormatError(name, 1, 'the file is empty.');

  return {
    source: file,
    format,
    count: ratings.length,
    users: users.toArray(),
    items: items.toArray(),
    ratings: ratings.toArray(),
    userIds: userIds.toArray(),
    itemIds: itemIds.toArray(),
    badRows,
    badRowExamples,
    lines: lineNo,
  };
}
