import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../version.js';

/**
 * Folders under src/ whose code cannot change a cell's numbers: the CLI, report formatting and the
 * reproduction scripts (they only build configs, which are part of the key, and format results).
 */
const EXCLUDED = new Set(['cli', join('experiments', 'report'), join('experiments', 'reproduce')]);

let memo: string | undefined;

/**
 * A SHA-256 fingerprint (first 12 hex digits) of the code that computes cells: every module under
 * the package's `src` folder (compiled `.js`, or `.ts` when run from source) except the CLI, the
 * report formatting and the reproduction scripts, in sorted path order. Cached cells are keyed by it (see {@link cacheVersion}),
 * so editing an algorithm without bumping the version never serves stale results.
 *
 * @example
 * codeFingerprint(); // returns e.g. '9c0e4f1a2b3d'
 */
export function codeFingerprint(): string {
  if (memo !== undefined) return memo;
  const here = fileURLToPath(import.meta.url);
  const ext = here.endsWith('.ts') ? '.ts' : '.js';
  const root = join(here, '..', '..');
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!EXCLUDED.has(relative(root, p))) walk(p);
      } else if (e.name.endsWith(ext) && !e.name.endsWith(`.d${ext}`)) files.push(p);
    }
  };
  walk(root);
  files.sort();
  const h = createHash('sha256');
  for (const f of files) {
    h.update(relative(root, f).split(sep).join('/'));
    h.update('\0');
    h.update(readFileSync(f));
    h.update('\0');
  }
  memo = h.digest('hex').slice(0, 12);
  return memo;
}

/**
 * The version string that cell cache keys are computed with: the package version plus the code
 * fingerprint, e.g. `0.1.0+code.9c0e4f1a2b3d`.
 *
 * @example
 * cacheVersion().startsWith(VERSION); // returns true
 */
export function cacheVersion(): string {
  return `${VERSION}+code.${codeFingerprint()}`;
}
