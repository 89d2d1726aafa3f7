import { createHash } from 'node:crypto';
import { canonicalJson } from './canonicalJson.js';
import type { CellConfig } from './types.js';

/**
 * The cache key of a cell: the first 24 hex digits of SHA-256 over the canonical JSON of
 * (cell config, software version). Results are cached under it and sorted by it.
 *
 * @example
 * cellKey(cell, '0.1.0'); // returns e.g. '3f1c9a0b5e2d7c4a9b8e1f60'
 */
export function cellKey(config: CellConfig, version: string): string {
  return createHash('sha256').update(canonicalJson({ config, version })).digest('hex').slice(0, 24);
}
