import assert from 'node:assert/strict';
import { test } from 'node:test';
import { epsilonToRho, zcdpToEpsilon } from '../../src/privacy/index.js';
import { loadExactReference } from '../privacy/exactReference.js';
import { relClose } from '../privacy/reference.js';
import { runCli } from './runCli.js';

const json = async (args: string[]): Promise<Record<string, unknown>> => {
  const r = await runCli(args);
  assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

test('privacy calibrate --accountant exact --json: the issue values against mpmath (1e-6 relative)', async () => {
  for (const c of loadExactReference().issueCalibrations) {
    const args = ['privacy', 'calibrate', '--epsilon', String(c.epsilon), '--delta', '1e-5'];
    if (c.q < 1) args.push('--q', String(c.q));
    const j = await json([...args, '--accountant', 'exact', '--noise', 'continuous', '--json']);
    relClose(j.sigma as number, Number(c.sigma), 1e-6, `eps=${c.epsilon} q=${c.q}`);
    assert.equal(j.accountant, 'exact');
    assert.ok((j.epsilon as number) <= c.epsilon);
  }
  // exact is the default accountant, with the discrete sampler's margin
  const d = await json(['privacy', 'calibrate', '--epsilon', '1', '--delta', '1e-5', '--json']);
  assert.equal(d.accountant, 'exact');
  assert.equal(d.noise, 'discrete');
  assert.ok((d.sigma as number) <= 3.74);
});

test('privacy epsilon --accountant exact --json: GDP closed form with --compositions; PLD with --q < 1', async () => {
  const ref = loadExactReference().gdp.find((c) => c.mu === 0.5 && c.delta === 1e-5)!;
  // 4 releases at sigma 4: mu = sqrt(4)/4 = 0.5
  const j = await json([
    'privacy',
    'epsilon',
    '--sigma',
    '4',
    '--compositions',
    '4',
    '--delta',
    '1e-5',
    '--accountant',
    'exact',
    '--noise',
    'continuous',
    '--json',
  ]);
  relClose(j.epsilon as number, Number(ref.epsilon), 1e-6, 'gdp');
  assert.equal(j.method, 'gdp');
  const two = loadExactReference().twoSubsampled[0]!;
  const p = await json([
    'privacy',
    'epsilon',
    '--sigma',
    String(two.sigma),
    '--q',
    String(two.q),
    '--compositions',
    '2',
    '--delta',
    '1e-5',
    '--accountant',
    'exact',
    '--json',
  ]);
  assert.equal(p.method, 'pld');
  const exact = Number(two.epsilon);
  assert.ok(
    (p.epsilon as number) >= exact && (p.epsilon as number) <= exact * 1.01,
    `pld ${p.epsilon} vs ${exact}`,
  );
  assert.ok((p.epsilonLower as number) <= exact);
});

test('privacy user --accountant exact --json agrees with mpmath; zcdp equals m c^2 rho; group privacy beside it', async () => {
  for (const c of loadExactReference().userLevel) {
    const j = await json([
      'privacy',
      'user',
      '--epsilon',
      String(c.epsilon),
      '--delta',
      String(c.delta),
      '--contributions',
      String(c.contributions),
      '--participations',
      String(c.participations),
      '--accountant',
      'exact',
      '--json',
    ]);
    relClose(j.sigma as number, Number(c.sigma), 1e-6, `user c=${c.contributions} m=${c.participations}`);
    const event = (j.eventLevel as { sigma: number }).sigma;
    const group = j.groupPrivacy as { k: number; sigma: number };
    assert.equal(group.k, c.contributions * c.participations);
    relClose(group.sigma, group.k * event, 1e-12, 'group = k x event-level (GDP group privacy)');
    assert.ok(group.sigma > (j.sigma as number), 'user-level bounds beat group privacy');
  }
  const z = await json([
    'privacy',
    'user',
    '--epsilon',
    '5',
    '--delta',
    '1e-5',
    '--contributions',
    '2',
    '--participations',
    '10',
    '--accountant',
    'zcdp',
    '--json',
  ]);
  const rho = epsilonToRho(5, 1e-5);
  const sigma = z.sigma as number;
  relClose(10 * 2 * 2 * (1 / (2 * sigma * sigma)), rho, 1e-12, 'm c^2 rho_release = rho');
  relClose(zcdpToEpsilon((10 * 4) / (2 * sigma * sigma), 1e-5), 5, 1e-9, 'epsilon');
  relClose(z.rhoPerRelease as number, rho / 10, 1e-12, 'rhoPerRelease = c^2 / (2 sigma^2) = rho / m');
  const human = await runCli([
    'privacy',
    'user',
    '--epsilon',
    '1',
    '--delta',
    '1e-5',
    '--contributions',
    '1',
    '--participations',
    '10',
  ]);
  assert.equal(human.status, 0, human.stderr);
  assert.match(human.stdout, /^user-level \(epsilon=1, delta=0\.00001\) .* sigma = [\d.]+ per release/);
  assert.match(human.stdout, /event-level .* sigma = /);
  assert.match(human.stdout, /group privacy for k = c m = 10 events/);
});

test('the new options are validated, naming the option, the value and the rule', async () => {
  const cases: [string[], RegExp][] = [
    [
      ['privacy', 'calibrate', '--epsilon', '1', '--delta', '1e-5', '--accountant', 'pld'],
      /--accountant must be exact, zcdp or rdp. Got "pld"/,
    ],
    [
      ['privacy', 'calibrate', '--epsilon', '1', '--delta', '1e-5', '--orders', 'paper'],
      /--orders applies only to --accountant rdp/,
    ],
    [
      ['privacy', 'epsilon', '--sigma', '2', '--delta', '1e-5', '--conversion', 'improved'],
      /--conversion applies only to --accountant zcdp or rdp/,
    ],
    [
      ['privacy', 'calibrate', '--epsilon', '1', '--delta', '1e-5', '--q', '0.3', '--accountant', 'zcdp'],
      /--accountant zcdp has no bound for a subsampled Gaussian/,
    ],
    [['privacy', 'calibrate', '--epsilon', '1', '--delta', '1e-5', '--compositions', '0'], /--compositions/],
    [
      ['privacy', 'calibrate', '--epsilon', '1', '--delta', '1e-5', '--compositions', '2', '--steps', '3'],
      /--steps is another name for --compositions/,
    ],
    [
      ['privacy', 'epsilon', '--sigma', '2', '--delta', '1e-5', '--noise', 'float'],
      /--noise must be discrete or continuous. Got "float"/,
    ],
    [
      [
        'privacy',
        'user',
        '--epsilon',
        '1',
        '--delta',
        '1e-5',
        '--contributions',
        '0',
        '--participations',
        '3',
      ],
      /--contributions/,
    ],
    [
      [
        'privacy',
        'user',
        '--epsilon',
        '1',
        '--delta',
        '1e-5',
        '--contributions',
        '1',
        '--participations',
        '3',
        '--accountant',
        'rdp',
      ],
      /--accountant must be exact or zcdp for user-level calibration. Got "rdp"/,
    ],
    [
      [
        'privacy',
        'user',
        '--epsilon',
        '-1',
        '--delta',
        '1e-5',
        '--contributions',
        '1',
        '--participations',
        '3',
      ],
      /--epsilon must be > 0/,
    ],
  ];
  for (const [args, re] of cases) {
    const r = await runCli(args);
    assert.notEqual(r.status, 0, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, re);
  }
});

test('privacy calibrate --help names the accountants and their options', async () => {
  const r = await runCli(['privacy', 'calibrate', '--help']);
  assert.match(r.stdout + r.stderr, /--accountant <A>\s+exact/);
  assert.match(r.stdout + r.stderr, /--compositions <M>/);
});
