#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with node's built-in test runner.
// Node 20's `node --test` takes no glob patterns, so the files are listed here.
// Usage: node scripts/run-tests.mjs [substring ...]   (only files whose path contains a substring)
// Files run in parallel processes, as many as the machine has cores (at most 4; node's own default
// leaves one core idle, which on 2 cores means one file at a time); TEST_CONCURRENCY overrides.
// Many files wait on child processes (servers, PostgreSQL), so 2 at a time on 2 cores saves wall time.
// The longest files start first (CPU-seconds measured by scripts/test-timings.mjs, kept in
// scripts/test-times.json; a file not listed counts as 2 s), so the run does not end on one long file
// while the other core idles. The order changes no result: each file runs in its own process.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { listTestFiles } from './test-files.mjs';

const chosen = listTestFiles(process.argv.slice(2));
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
