/**
 * The on-disk cache of finished cells: one file `<key>.json` per cell under the cache directory,
 * written atomically (temporary file + rename), so that an interrupted run loses at most the cells
 * in flight and a reader never sees a partial file. The key hashes the cell config and the
 * software version and code fingerprint (`cellKey`, `cacheVersion`), so changed code never reuses old results.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from './canonicalJson.js';
import type { CellResult } from './types.js';

/** What a cache file holds: the deterministic result and how long it took to compute. */
export interface CachedCell {
  readonly result: CellResult;
  readonly durationMs: number;
  /**
   * Set when the result was not computed for this cell but taken from the identical run of the cell
   * with this key (same `cellRunKey`; `CellPool`), relabelled; `durationMs` is then 0.
   */
  readonly sharedFrom?: string;
}

let tmpCounter = 0;

/** Path of the cache file of `key`. */
export function cachePath(dir: string, key: string): string {
  return join(dir, `${key}.json`);
}

/**
 * The cached cell of `key`, or null when absent. A file that does not parse or whose key differs
 * (never produced by this code, since writes are atomic) is treated as absent and will be overwritten.
 *
 * @example
 * readCachedCell('.cache', '3f1c9a0b5e2d7c4a9b8e1f60'); // returns null before the cell has run
 */
export function readCachedCell(dir: string, key: string): CachedCell | null {
  let text: string;
  try {
    text = readFileSync(cachePath(dir, key), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as CachedCell;
    return parsed?.result?.key === key && typeof parsed.durationMs === 'number' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Writes a finished cell atomically (tmp file in the same directory, then rename).
 *
 * @example
 * writeCachedCell('.cache', { result, durationMs: 12.5 }); // creates .cache/<result.key>.json
 */
export function writeCachedCell(dir: string, cell: CachedCell): void {
  mkdirSync(dir, { recursive: true });
  const final = cachePath(dir, cell.result.key);
  const tmp = `${final}.tmp-${process.pid}-${tmpCounter++}`;
  writeFileSync(tmp, canonicalJson(cell));
  renameSync(tmp, final);
}
