import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function run(args: string[]) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
}

test('--version prints the package version', () => {
  const r = run(['--version']);
  assert.equal(r.status, 0);
  assert.match(r.stdout.trim(), /^\d+\.\d+\.\d+/);
});

test('--help describes the program', () => {
  const r = run(['--help']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /Usage: adaprivate/);
});

test('an unknown option exits non-zero with a one-line message on stderr', () => {
  const r = run(['--no-such-option']);
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /unknown option/);
});

test('a run of one command registers only that command; help and unknown words register all, in order', async () => {
  const { buildProgram } = await import('../../src/cli/main.js');
  const all = [
    'privacy',
    'run',
    'reproduce',
    'data',
    'bench',
    'evaluate',
    'logs',
    'audit',
    'serve',
    'migrate',
  ];
  const names = async (argv?: string[]) => (await buildProgram(argv)).commands.map((c) => c.name());
  assert.deepEqual(await names(), all);
  assert.deepEqual(await names([]), all);
  assert.deepEqual(await names(['--help']), all);
  assert.deepEqual(await names(['help', 'serve']), all);
  assert.deepEqual(await names(['serv']), all);
  assert.deepEqual(await names(['serve', '--db', 'x.db']), ['serve']);
  assert.deepEqual(await names(['logs', 'import']), ['evaluate', 'logs']);
  const reproduce = (await buildProgram(['reproduce', 'users'])).commands;
  assert.deepEqual(
    reproduce.map((c) => c.name()),
    ['reproduce'],
  );
  // the reproduce group keeps every subcommand added by the real-data, users and exact modules
  const subs = reproduce[0]!.commands.map((c) => c.name());
  for (const s of ['synthetic', 'users', 'exact', 'movielens', 'jester'])
    assert.ok(subs.includes(s), `${s} in ${subs}`);
  const migrate = (await buildProgram(['migrate'])).commands[0]!.commands.map((c) => c.name());
  assert.ok(migrate.includes('snapshot'), `snapshot in ${migrate}`);
});

test('serve --help answers without loading the other commands (and says so in its usage line)', () => {
  const r = run(['serve', '--help']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /Usage: adaprivate serve/);
});
