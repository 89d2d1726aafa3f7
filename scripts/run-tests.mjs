#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with node's built-in test runner.
// Node 20's `node --test` takes no glob patterns, so the files are listed here.
// Usage: node scripts/run-tests.mjs [substring ...]   (only files whose path contains a substring)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...chosen], { stdio: 'inherit' });
process.exit(r.status ?? 1);
