import { readFileSync } from 'node:fs';

/** Names of the packages this module ships in (the full library and the light core). */
const NAMES = new Set(['adaprivate', 'adaprivate-core']);

/**
 * The package version (recorded in every result file, snapshot and report), read once from the
 * nearest `package.json` of this package found by walking up from this module: `src/` under tsx,
 * `dist/src/` when compiled, `dist/` in adaprivate-core, or any other build directory inside the
 * repository (e.g. a private copy of the build under `.cache/build/src/`, which a long run uses so
 * that rebuilding `dist/` does not disturb it). Only when no such file exists at any level (a
 * bundled copy without its package.json) is it `0.0.0-unknown`.
 *
 * @example
 * VERSION; // returns e.g. '0.1.0'
 */
export const VERSION: string = (() => {
  let dir = new URL('./', import.meta.url);
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name !== undefined && NAMES.has(pkg.name) && typeof pkg.version === 'string')
        return pkg.version;
    } catch {
      // no readable package.json here: try the parent directory
    }
    const parent = new URL('../', dir);
    if (parent.href === dir.href) return '0.0.0-unknown';
    dir = parent;
  }
})();
