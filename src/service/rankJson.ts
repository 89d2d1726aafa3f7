/**
 * A fast path for JSON rank bodies (`POST .../rank` and `.../rank/batch`): reads the UTF-8 bytes of
 * the common body straight into the packed form a binary rank body decodes to (./binaryRank.ts),
 * each event's K x d features in one Float64Array, without building a JavaScript array per arm.
 * `JSON.parse` of a 100-event body at d = 20, K = 5 (110 KB) took ~480 us, about 13% of the server's
 * time per rank + reward pair in batches (docs/performance.md, "Issue 29 in session 24").
 *
 * It accepts only bodies that the route's JSON schema accepts and whose every part it reads exactly
 * as `JSON.parse` would, and answers `null` for every other body, which then takes the usual path
 * (`JSON.parse` and the schema), so that no answer changes, errors included:
 * - only the rank request's keys (`eventId`, `unit`, `withProbabilities`, `arms`; an arm's `id` and
 *   `features`; a batch's `events`), each at most once, with values of the schema's types and
 *   within its lengths and counts (`limits`);
 * - strings of printable ASCII without escapes (the schema's lengths are then byte lengths);
 * - numbers without an exponent, whose digits make an integer m <= 2^53 - 1 with at most 22 of them
 *   after the point: m / 10^f is then the correctly rounded value, which `JSON.parse` gives too;
 * - the arms of one event have features of one length (each event its own), as a packed block needs.
 * JSON white space is allowed between tokens.
 */

import { PACKED_FEATURES, type PackedRankRequest } from './binaryRank.js';
import { MAX_ID_LENGTH, MAX_UNIT_LENGTH, type ServiceLimits } from './contract.js';

/**
 * Marks a body the fast path read: the route then checks it against the binary header's schema (the
 * request without features), as the JSON schema would have passed it. A symbol key: no JSON text has one.
 */
export const FAST_RANK_JSON: unique symbol = Symbol('adaprivate.fastRankJson');

const ascii = (...keys: string[]): Uint8Array[] => keys.map((k) => new TextEncoder().encode(k));
/** The keys of a rank request, of an arm and of a batch, as bytes. */
const RANK_KEYS = ascii('arms', 'eventId', 'unit', 'withProbabilities');
const ARM_KEYS = ascii('id', 'features');
const BATCH_KEYS = ascii('events');

/** 10^0 .. 10^22, every one exact as a double. */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/** Thrown inside the reader for a body outside the fast path (caught in {@link readRankJson}). */
const DECLINE = Symbol('decline');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A rank request read: its fields and arms, and its features' place in the values read. */
interface ReadRank {
  readonly fields: { eventId?: string; unit?: string; withProbabilities?: boolean };
  readonly arms: { id: string }[];
  readonly start: number;
  readonly end: number;
}

/**
 * The values being read, shared by every read (they are synchronous, one at a time): each body's
 * values are copied out once at its end. Kept while at most {@link SCRATCH_MAX} values long (1 MB).
 */
let scratch = new Float64Array(1024);
const SCRATCH_MAX = 131_072;

/** A reader of one body: the bytes, a position and the feature values read (one reader per body). */
class Reader {
  i = 0;
  /** The feature values of every request read: the shared scratch array, grown as needed. */
  private buf = scratch;

  constructor(
    private readonly b: Uint8Array,
    private readonly limits: ServiceLimits,
  ) {}

  /** Skips white space; the next byte (undefined at the end). */
  peek(): number | undefined {
    const b = this.b;
    let c = b[this.i];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++this.i];
    return c;
  }

  /** Consumes `ch` (after white space) or declines. */
  expect(ch: number): void {
    if (this.peek() !== ch) throw DECLINE;
    this.i++;
  }

  /** After a member or element: true on ',' (consumed), false on `close` (consumed). */
  more(close: number): boolean {
    const c = this.peek();
    this.i++;
    if (c === 0x2c) return true;
    if (c === close) return false;
    throw DECLINE;
  }

  /** A string of printable ASCII, no escapes, of `min`..`max` bytes. */
  string(min: number, max: number): string {
    this.expect(QUOTE);
    const b = this.b;
    const start = this.i;
    for (;;) {
      const c = b[this.i];
      if (c === QUOTE) break;
      if (c === undefined || c < 0x20 || c > 0x7e || c === BACKSLASH) throw DECLINE;
      this.i++;
    }
    const n = this.i - start;
    this.i++;
    if (n < min || n > max) throw DECLINE;
    return latin1(b, start, this.i - 1);
  }

  /**
   * A quoted key: the index of the one of `keys` it is (their ASCII bytes), or a decline. No string
   * is made.
   */
  key(keys: readonly Uint8Array[]): number {
    this.expect(QUOTE);
    const b = this.b;
    const start = this.i;
    let c = b[start];
    while (c !== QUOTE && c !== undefined && c !== BACKSLASH) c = b[++this.i];
    if (c !== QUOTE) throw DECLINE;
    const n = this.i - start;
    this.i++;
    this.expect(0x3a);
    outer: for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      if (key.length !== n) continue;
      for (let j = 0; j < n; j++) if (b[start + j] !== key[j]) continue outer;
      return k;
    }
    throw DECLINE;
  }

  /** `true` or `false`. */
  boolean(): boolean {
    const b = this.b;
    const c = this.peek();
    const i = this.i;
    if (c === 0x74 && b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65) {
      this.i += 4;
      return true;
    }
    if (c === 0x66 && b[i + 1] === 0x61 && b[i + 2] === 0x6c && b[i + 3] === 0x73 && b[i + 4] === 0x65) {
      this.i += 5;
      return false;
    }
    throw DECLINE;
  }

  /** Feature values read so far (of every event: `buf` from 0). */
  private n = 0;

  /**
   * One rank request: its fields, and where its K x d features sit in the values read ({@link pack}
   * makes them one array, each request's a view of it).
   */
  rank(): ReadRank {
    this.expect(0x7b);
    let eventId: string | undefined;
    let unit: string | undefined;
    let withProbabilities: boolean | undefined;
    let arms: { id: string }[] | undefined;
    const start = this.n;
    if (this.peek() === 0x7d) throw DECLINE; // no arms
    do {
      const key = this.key(RANK_KEYS);
      if (key === 0 && arms === undefined) {
        arms = [];
        this.arms(arms);
      } else if (key === 1 && eventId === undefined) eventId = this.string(1, MAX_ID_LENGTH);
      else if (key === 2 && unit === undefined) unit = this.string(1, MAX_UNIT_LENGTH);
      else if (key === 3 && withProbabilities === undefined) withProbabilities = this.boolean();
      else throw DECLINE; // a key given twice
    } while (this.more(0x7d));
    if (arms === undefined) throw DECLINE;
    const fields: { eventId?: string; unit?: string; withProbabilities?: boolean } = {};
    if (eventId !== undefined) fields.eventId = eventId;
    if (unit !== undefined) fields.unit = unit;
    if (withProbabilities !== undefined) fields.withProbabilities = withProbabilities;
    return { fields, arms, start, end: this.n };
  }

  /** The requests read, each with its features: views of one copy of the values read. */
  pack(read: readonly ReadRank[]): PackedRankRequest[] {
    const all = this.buf.slice(0, this.n);
    return read.map((r) =>
      Object.assign(r.fields, {
        arms: r.arms,
        [PACKED_FEATURES]: read.length === 1 ? all : all.subarray(r.start, r.end),
      }),
    );
  }

  /** The arms array into `arms` (ids); their features, one length for all, after the values read. */
  private arms(arms: { id: string }[]): void {
    this.expect(0x5b);
    let d = -1;
    do {
      if (arms.length === this.limits.arms) throw DECLINE;
      this.expect(0x7b);
      let id: string | undefined;
      let got = -1;
      do {
        const key = this.key(ARM_KEYS);
        if (key === 0 && id === undefined) id = this.string(1, MAX_ID_LENGTH);
        else if (key === 1 && got < 0) {
          got = this.features(this.n);
          if (d >= 0 && got !== d) throw DECLINE; // arms of unequal lengths: the usual path says which
          d = got;
          this.n += got;
        } else throw DECLINE;
      } while (this.more(0x7d));
      if (id === undefined || got < 0) throw DECLINE;
      arms.push({ id });
    } while (this.more(0x5d));
  }

  /**
   * One features array, written to the values from `at`; its length (1..limits.features).
   * The hot loop of the fast path: the position and the bytes in locals, each number read inline.
   */
  private features(at: number): number {
    this.expect(0x5b);
    const b = this.b;
    const max = this.limits.features;
    let buf = this.buf;
    let i = this.i;
    let n = 0;
    for (;;) {
      let c = b[i];
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i];
      let neg = false;
      if (c === 0x2d) {
        neg = true;
        c = b[++i];
      }
      let m = 0;
      if (c === 0x30) c = b[++i];
      else if (c !== undefined && c >= 0x31 && c <= 0x39) {
        do {
          m = m * 10 + (c - 0x30);
          c = b[++i];
        } while (c !== undefined && c >= 0x30 && c <= 0x39);
      } else throw DECLINE;
      let f = 0;
      if (c === 0x2e) {
        c = b[++i];
        if (c === undefined || c < 0x30 || c > 0x39) throw DECLINE;
        do {
          m = m * 10 + (c - 0x30);
          f++;
          c = b[++i];
        } while (c !== undefined && c >= 0x30 && c <= 0x39);
      }
      // an exponent, a digit after a leading 0 ("01", not JSON), or too many digits: the usual path
      if (c === 0x65 || c === 0x45 || (c !== undefined && c >= 0x30 && c <= 0x39)) throw DECLINE;
      if (m > Number.MAX_SAFE_INTEGER || f > 22) throw DECLINE;
      const v = f === 0 ? m : m / POW10[f]!;
      if (n === max) throw DECLINE;
      if (at + n === buf.length) {
        const grown = new Float64Array(2 * buf.length);
        grown.set(buf);
        buf = grown;
        this.buf = grown;
        if (grown.length <= SCRATCH_MAX) scratch = grown;
      }
      buf[at + n++] = neg ? -v : v;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i];
      i++;
      if (c === 0x2c) continue;
      if (c === 0x5d) break;
      throw DECLINE;
    }
    this.i = i;
    return n;
  }

  /** The end of the body: nothing but white space. */
  end(): void {
    if (this.peek() !== undefined) throw DECLINE;
  }
}

/**
 * Strings the fast path made lately, by a hash of their bytes: arm ids repeat from event to event,
 * and a string compared with the bytes costs less than a new one.
 */
const recent: (string | undefined)[] = new Array(256);

/** The bytes start..end as a string (printable ASCII: one character per byte). */
function latin1(b: Uint8Array, start: number, end: number): string {
  let h = end - start;
  for (let i = start; i < end; i++) h = (h * 31 + b[i]!) | 0;
  const slot = h & 255;
  const seen = recent[slot];
  if (seen !== undefined && seen.length === end - start) {
    let same = true;
    for (let i = start; i < end && same; i++) same = seen.charCodeAt(i - start) === b[i];
    if (same) return seen;
  }
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(b[i]!);
  recent[slot] = s;
  return s;
}

/** Runs `read` on a new reader of `body`; null when the body is outside the fast path. */
function readRankJson<T>(body: Uint8Array, limits: ServiceLimits, read: (r: Reader) => T): T | null {
  const r = new Reader(body, limits);
  try {
    return read(r);
  } catch (err) {
    if (err === DECLINE) return null;
    throw err;
  }
}

/**
 * A rank body read by the fast path, marked {@link FAST_RANK_JSON}, or null (the usual path reads it).
 *
 * @example
 * fastRankJson(Buffer.from('{"arms":[{"id":"a","features":[0.5,1]}]}'), DEFAULT_LIMITS);
 * // { arms: [{ id: 'a' }], [PACKED_FEATURES]: Float64Array [0.5, 1], [FAST_RANK_JSON]: true }
 */
export function fastRankJson(body: Uint8Array, limits: ServiceLimits): object | null {
  return readRankJson(body, limits, (r) => {
    const req = r.rank();
    r.end();
    return Object.assign(r.pack([req])[0]!, { [FAST_RANK_JSON]: true });
  });
}

/**
 * A rank/batch body (`{"events": [...]}`, 1..limits.batch rank requests) read by the fast path,
 * marked {@link FAST_RANK_JSON}, or null.
 */
export function fastRankBatchJson(body: Uint8Array, limits: ServiceLimits): object | null {
  return readRankJson(body, limits, (r) => {
    r.expect(0x7b);
    r.key(BATCH_KEYS);
    r.expect(0x5b);
    const events: ReadRank[] = [];
    do {
      if (events.length === limits.batch) throw DECLINE;
      events.push(r.rank());
    } while (r.more(0x5d));
    r.expect(0x7d);
    r.end();
    return { events: r.pack(events), [FAST_RANK_JSON]: true };
  });
}
