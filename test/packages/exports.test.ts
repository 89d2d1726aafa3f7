// Every entry point the root package.json exports resolves to a built module that loads, and the
// core package's entry points name the same source files (so the two packages cannot drift).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
type Exports = Record<string, string | { types: string; default: string }>;
const read = (p: string) => JSON.parse(readFileSync(join(repo, p), 'utf8')) as { exports: Exports };

test('root entry points exist, load, and export what the docs name', async () => {
  const { exports } = read('package.json');
  const expected: Record<string, string[]> = {
    '.': ['createPolicy', 'evaluateReplay', 'HorizonExceededError', 'replayFromEnvironment', 'epsilonToRho'],
    './runner': ['runExperiment', 'runCell', 'evaluateReplay', 'validateExperimentConfig'],
    './experiments': ['runExperiment', 'summarise', 'writeResultsJson'],
    './evaluation': ['evaluateOnLog', 'evaluatedFromPolicy', 'syntheticDecisions'],
  };
  for (const [key, names] of Object.entries(expected)) {
    const entry = exports[key];
    assert.ok(entry !== undefined && typeof entry !== 'string', `export ${key}`);
    assert.ok(existsSync(join(repo, entry.types)), `${key} types ${entry.types}`);
    const mod = (await import(pathToFileURL(join(repo, entry.default)).href)) as Record<string, unknown>;
    for (const n of names) assert.equal(typeof mod[n], 'function', `${key} exports ${n}`);
  }
});

test('the core package exports the same modules as the root (dist/src/X there is dist/X here)', () => {
  const root = read('package.json').exports;
  const core = read('packages/core/package.json').exports;
  for (const key of ['.', './runner', './evaluation']) {
    const r = root[key] as { default: string };
    const c = core[key] as { default: string };
    assert.equal(c.default.replace('./dist/', './dist/src/'), r.default, key);
  }
});
