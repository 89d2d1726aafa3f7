import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

let counter = 0;

/**
 * Writes `text` to `path` atomically: a temporary file in the same directory, then rename.
 *
 * @example
 * writeAtomic('out/results.json', '{}'); // out/results.json now holds '{}'
 */
export function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${counter++}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
