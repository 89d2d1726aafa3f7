import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (recorded in every result file). */
export const VERSION: string = (() => {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if ((pkg.name === 'adaprivate' || pkg.name === 'adaprivate-core') && typeof pkg.version === 'string')
        return pkg.version;
    } catch {
      // try the next location (src/ under tsx, dist/src/ when compiled, dist/ in adaprivate-core)
    }
  }
  return '0.0.0-unknown';
})();
