import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from './runCli.js';

const run = runCli;

test('privacy rho --json: {"rho", "sigma"} (SPEC: eps=5, delta=1e-5 -> 0.4496)', async () => {
  const r = await run(['privacy', 'rho', '--epsilon', '5', '--delta', '1e-5', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { rho: number; sigma: number };
  assert.ok(Math.abs(j.rho - 0.4496) < 5e-5);
  assert.ok(Math.abs(j.sigma - 1 / Math.sqrt(2 * j.rho)) < 1e-12);
  const cks = JSON.parse(
    (await run(['privacy', 'rho', '--epsilon', '5', '--delta', '1e-5', '--conversion', 'cks', '--json']))
      .stdout,
  );
  assert.ok(cks.rho > j.rho);
  const human = await run(['privacy', 'rho', '--epsilon', '5', '--delta', '1e-5']);
  assert.match(human.stdout, /^rho = 0\.4496\d* .*sigma = 1\.05/);
});

test('privacy rdp --json: {"orders", "rdp"}; q=1 gives alpha/(2 sigma^2)', async () => {
  const r = await run([
    'privacy',
    'rdp',
    '--sigma',
    '2',
    '--q',
    '1',
    '--orders',
    '2,3,4',
    '--steps',
    '10',
    '--json',
  ]);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { orders: number[]; rdp: number[] };
  assert.deepEqual(j.orders, [2, 3, 4]);
  assert.deepEqual(j.rdp, [2.5, 3.75, 5]);
});

test('privacy epsilon / calibrate --json agree with each other', async () => {
  const c = await run([
    'privacy',
    'calibrate',
    '--epsilon',
    '1',
    '--delta',
    '1e-5',
    '--q',
    '0.3',
    '--accountant',
    'rdp',
    '--orders',
    'paper',
    '--json',
  ]);
  assert.equal(c.status, 0, c.stderr);
  const cal = JSON.parse(c.stdout) as { sigma: number; order: number; epsilon: number };
  assert.ok(cal.epsilon <= 1 && cal.sigma > 0 && [2, 3, 4, 5, 6, 8, 16, 32, 64].includes(cal.order));
  const e = await run([
    'privacy',
    'epsilon',
    '--sigma',
    String(cal.sigma),
    '--q',
    '0.3',
    '--delta',
    '1e-5',
    '--accountant',
    'rdp',
    '--orders',
    'paper',
    '--json',
  ]);
  const eps = JSON.parse(e.stdout) as { epsilon: number; order: number };
  assert.equal(eps.order, cal.order);
  assert.ok(Math.abs(eps.epsilon - cal.epsilon) < 1e-12);
  const human = await run(['privacy', 'calibrate', '--epsilon', '1', '--delta', '1e-5', '--q', '0.3']);
  assert.match(human.stdout, /^sigma = [\d.]+ gives epsilon = /);
});

test('privacy group --json: rhoPerRecord = rho / k^2 (SPEC figures)', async () => {
  for (const [k, want] of [
    [1, '0.450'],
    [5, '0.018'],
  ] as const) {
    const r = await run([
      'privacy',
      'group',
      '--epsilon',
      '5',
      '--delta',
      '1e-5',
      '--k',
      String(k),
      '--json',
    ]);
    const j = JSON.parse(r.stdout) as { rho: number; rhoPerRecord: number };
    assert.equal(j.rhoPerRecord.toFixed(3), want);
  }
  const r = await run(['privacy', 'group', '--epsilon', '5', '--delta', '1e-5', '--k', '10', '--json']);
  assert.equal((JSON.parse(r.stdout) as { rhoPerRecord: number }).rhoPerRecord.toFixed(4), '0.0045');
});

test('bad input exits non-zero with a one-line reason', async () => {
  const cases: [string[], RegExp][] = [
    [['privacy', 'epsilon', '--sigma', '1', '--q', '1.5', '--delta', '1e-5'], /--q must be in \(0, 1\]/],
    [['privacy', 'epsilon', '--sigma', '-1', '--q', '0.5', '--delta', '1e-5'], /--sigma must be > 0/],
    [['privacy', 'rho', '--epsilon', '1', '--delta', '1'], /--delta must be in \(0, 1\)/],
    [['privacy', 'rdp', '--sigma', '1', '--q', '0.5', '--orders', '0.5,2'], /every order must be > 1/],
    [['privacy', 'rdp', '--sigma', 'abc', '--q', '0.5'], /--sigma must be a finite number/],
    [
      [
        'privacy',
        'calibrate',
        '--epsilon',
        '0.1',
        '--delta',
        '1e-5',
        '--q',
        '0.3',
        '--accountant',
        'rdp',
        '--orders',
        'paper',
      ],
      /unreachable/,
    ],
    [['privacy', 'rho', '--epsilon', '1', '--delta', '1e-5', '--conversion', 'foo'], /--conversion must be/],
  ];
  for (const [args, re] of cases) {
    const r = await run(args);
    assert.notEqual(r.status, 0, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, re);
  }
});
