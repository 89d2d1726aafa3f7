import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { benchArgs, headerComment } from '../../bench/benchArgs.js';

const script = (name: string): string => fileURLToPath(new URL(`../../bench/${name}`, import.meta.url));

describe('headerComment', () => {
  it('reads a block comment without its marks', () => {
    assert.equal(
      headerComment('/**\n * Times a thing.\n *\n * Usage: x\n */\nimport a from "b";'),
      'Times a thing.\n\nUsage: x',
    );
  });
  it('reads consecutive // lines, up to the first line of code', () => {
    assert.equal(
      headerComment('// Times a thing.\n// Usage: x\nimport a from "b";\n// later'),
      'Times a thing.\nUsage: x',
    );
  });
  it('is null for a file that starts with code', () => {
    assert.equal(headerComment('import a from "b";\n/** later */'), null);
  });
});

describe('benchArgs', () => {
  it('gives each option its value when given, else its default, and the switches as booleans', () => {
    const a = benchArgs(
      import.meta.url,
      { rounds: '3', body: 'json', out: '' },
      ['json', 'replicas'],
      ['--rounds', '5', '--json'],
    );
    assert.deepEqual({ ...a }, { rounds: '5', body: 'json', out: '', json: true, replicas: false });
  });
});

describe('benchArgs (through a bench script)', () => {
  it('--help prints the script header and exits 0 before anything runs', () => {
    const r = spawnSync(process.execPath, [script('rankJson.js'), '--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const header = headerComment(readFileSync(script('rankJson.js'), 'utf8'));
    assert.ok(header?.includes('Usage'));
    assert.equal(r.stdout.trim(), header);
    assert.doesNotMatch(r.stdout, /us per body/); // the benchmark did not run
  });
  it('refuses an option the script does not take, naming it, with exit code 2', () => {
    const r = spawnSync(process.execPath, [script('loadtestTargets.js'), '--round', '3'], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /loadtestTargets\.js: Unknown option '--round'.*--help/);
    assert.equal(r.stdout, '');
  });
  it('refuses a count that is not a positive integer (positiveInt)', () => {
    const r = spawnSync(process.execPath, [script('rankJson.js'), '--dim', '0'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /rankJson\.js: --dim takes a positive integer\. Got 0\./);
  });
  it('refuses an option missing its value', () => {
    const r = spawnSync(process.execPath, [script('rankJson.js'), '--batch'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /rankJson\.js: .*'--batch <value>' argument missing/);
  });
});
