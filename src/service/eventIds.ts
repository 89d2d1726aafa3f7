/**
 * Event ids for ranks that name none: time-ordered UUIDs (version 7, RFC 9562), increasing in the
 * order this process makes them. A decision is stored under its model and event id (a unique
 * index); random ids (version 4) land on random pages of that index, so each group commit wrote
 * one index page per decision, where ordered ids share the last page: 11.7 -> 8.0 WAL frames per
 * commit of 4 decisions on a 60,000-decision table (docs/performance.md, session 21).
 *
 * Layout: 48 bits of Unix milliseconds; the version; 12 bits of counter (method 1 of RFC 9562
 * section 6.2: started at a random value below 2,048 at each new millisecond, then incremented, so
 * that ids of one millisecond stay ordered; at 4,096 it carries into the millisecond); the variant;
 * 62 fresh random bits per id. A clock that goes back keeps the last millisecond, so the order
 * holds. The id shows when the decision was made (to the millisecond) to whoever sees it; the
 * decision's time is stored with it anyway.
 *
 * The `uuid` package's v7 draws its random bytes with one `crypto.getRandomValues` call per id
 * (~4.3 us here, against ~0.12 us for `crypto.randomUUID`); this one takes them from a pool filled
 * by `randomFillSync` 512 ids at a time.
 */
import { randomFillSync } from 'node:crypto';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * A generator of version 7 UUIDs on the clock `now` (milliseconds since the epoch).
 *
 * @example
 * const next = eventIdGenerator();
 * next() < next(); // true: '019ae7c2-5f10-7a3c-...' then '019ae7c2-5f10-7a3d-...'
 */
export function eventIdGenerator(now: () => number = Date.now): () => string {
  const pool = new Uint8Array(4096);
  let at = pool.length;
  let lastMs = -1;
  let counter = 0;
  let head = ''; // the hex text of lastMs, dashed: 'xxxxxxxx-xxxx-'
  /** The index of `n` unused random bytes in the pool (refilled when spent). */
  const fresh = (n: number): number => {
    if (at + n > pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    const i = at;
    at += n;
    return i;
  };
  return () => {
    let ms = Math.floor(now());
    if (ms > lastMs) {
      const i = fresh(2);
      counter = ((pool[i]! << 8) | pool[i + 1]!) & 0x7ff;
      lastMs = ms;
      head = dashedMs(ms);
    } else {
      ms = lastMs;
      counter++;
      if (counter > 0xfff) {
        lastMs = ++ms;
        counter = 0;
        head = dashedMs(ms);
      }
    }
    const r = fresh(8);
    const p = pool;
    return (
      `${head}${HEX[0x70 | (counter >> 8)]}${HEX[counter & 0xff]}-` +
      `${HEX[0x80 | (p[r]! & 0x3f)]}${HEX[p[r + 1]!]}-${HEX[p[r + 2]!]}${HEX[p[r + 3]!]}${HEX[p[r + 4]!]}` +
      `${HEX[p[r + 5]!]}${HEX[p[r + 6]!]}${HEX[p[r + 7]!]}`
    );
  };
}

function dashedMs(ms: number): string {
  const t = ms.toString(16).padStart(12, '0');
  return `${t.slice(0, 8)}-${t.slice(8)}-`;
}

/** The process's event ids (one sequence for every model). */
export const newEventId: () => string = eventIdGenerator();
