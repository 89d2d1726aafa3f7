#!/usr/bin/env node
// The test command of the mutation run (stryker.config.mjs, command runner): runs the given test
// files straight from TypeScript (tsx, no build per mutant), one after the other, and stops at the
// first failing file, so a killed mutant costs only the tests up to the one that kills it.
// Usage: node scripts/mutation-tests.mjs test/a.test.ts test/b.test.ts ...
import { spawnSync } from 'node:child_process';

for (const file of process.argv.slice(2)) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=dot', file], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) {
    console.error(`mutation-tests: ${file} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}
