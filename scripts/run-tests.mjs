#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with node's built-in test runner.
// Node 20's `node --test` takes no glob patterns, so the files are listed here.
// Usage: node scripts/run-tests.mjs [substring ...]   (only files whose path contains a substring)
// Files run in parallel processes, as many as the machine has cores (at most 4; node's own default
// leaves one core idle, which on 2 cores means one file at a time); TEST_CONCURRENCY overrides.
// Many files wait on child processes (servers, PostgreSQL), so 2 at a time on 2 cores saves wall time.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const root = 'dist/test';
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
const filters = process.argv.slice(2);
const chosen = filters.length ? files.filter((f) => filters.some((s) => f.includes(s))) : files;
if (chosen.length === 0) {
  console.error(`run-tests: no test files matched ${filters.join(', ') || '(all)'}.`);
  process.exit(2);
}
const requested = process.env.TEST_CONCURRENCY;
const concurrency =
  requested !== undefined && /^[1-9][0-9]*$/.test(requested)
    ? Number(requested)
    : Math.max(1, Math.min(4, availableParallelism()));
const r = spawnSync(
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...chosen],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
