// The compiled test files (dist/test/**/*.test.js), shared by run-tests.mjs and test-timings.mjs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = 'dist/test';

/** CPU-seconds per file (path under dist/test), measured by scripts/test-timings.mjs --write-times. */
export const timesFile = new URL('test-times.json', import.meta.url);

/**
 * Every compiled test file whose path contains one of `filters` (all when empty), longest first by
 * scripts/test-times.json (a file not listed there counts as 2 s; ties keep the path order). Exits on none.
 */
export function listTestFiles(filters = []) {
  if (!existsSync(root)) {
    console.error('run-tests: dist/test does not exist; run `npm run build` first.');
    process.exit(2);
  }
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.test.js')) files.push(p);
    }
  };
  walk(root);
  const chosen = filters.length ? files.filter((f) => filters.some((s) => f.includes(s))) : files;
  if (chosen.length === 0) {
    console.error(`run-tests: no test files matched ${filters.join(', ') || '(all)'}.`);
    process.exit(2);
  }
  return chosen.sort((a, b) => fileCost(b) - fileCost(a));
}

let times;
/** A compiled test file's CPU-seconds in scripts/test-times.json (2 when not listed). */
export function fileCost(file) {
  times ??= JSON.parse(readFileSync(timesFile, 'utf8')).cpuSeconds;
  return times[file.slice(root.length + 1)] ?? 2;
}
