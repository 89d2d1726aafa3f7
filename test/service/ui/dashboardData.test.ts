import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  droppedText,
  epochBudgetSeries,
  guaranteeText,
  lineChartSvg,
  rewardRate,
} from '../../../src/service/ui/dashboardData.js';

const status = {
  policy: 'adaprivate-ts',
  privacy: {
    epsilon: 0.71,
    delta: 1e-5,
    rho: 0.01,
    releases: 3,
    composition: 'zcdp',
    conversion: 'classic',
    noise: 'gaussian',
  },
  budget: { note: 'each reward enters one release.', target: { epsilon: 1 } },
};

test('the guarantee in words names the unit, (epsilon, delta), the releases and the note', () => {
  assert.equal(
    guaranteeText(status),
    'Every single reward (event-level) is protected by (epsilon = 0.71, delta = 0.00001)-DP, spent over 3 releases (composition: zcdp; conversion: classic; rho = 0.01); target epsilon 1. Each reward enters one release.',
  );
  assert.match(
    guaranteeText({ ...status, options: { privacyUnit: 'user' } }),
    /^All rewards of one user \(user-level\)/,
  );
  assert.match(
    guaranteeText({ ...status, privacy: { ...status.privacy, releases: 0 } }),
    /nothing released yet/,
  );
  assert.match(
    guaranteeText({
      ...status,
      policy: 'lints',
      privacy: { ...status.privacy, epsilon: Number.POSITIVE_INFINITY, noise: 'none' },
    }),
    /^No privacy guarantee: lints/,
  );
});

test('reward rate: mean with a 95% normal interval, clipped to [0, 1]; none below 2 rewards', () => {
  assert.equal(rewardRate({ n: 1, sum: 1, sumSquares: 1 }), null);
  const r = rewardRate({ n: 100, sum: 60, sumSquares: 60 })!;
  // s = sqrt((60 - 100 * 0.36) / 99) = 0.4924; half = 1.96 * 0.4924 / 10 = 0.0965
  assert.ok(Math.abs(r.mean - 0.6) < 1e-12);
  assert.ok(Math.abs(r.lo - 0.5035) < 1e-3 && Math.abs(r.hi - 0.6965) < 1e-3, JSON.stringify(r));
});

test('the SVG chart carries the points it draws, and says when there is no data', () => {
  const svg = lineChartSvg(
    [
      { x: 0, y: 0.2 },
      { x: 10, y: 0.5 },
    ],
    { title: 'budget <spent>', xLabel: 'time', yLabel: 'epsilon', step: true },
  );
  assert.ok(svg.startsWith('<svg'));
  assert.match(svg, /data-x="0" data-y="0.2"/);
  assert.match(svg, /data-x="10" data-y="0.5"/);
  assert.match(svg, /<title>budget &lt;spent&gt;<\/title>/);
  assert.match(lineChartSvg([], { title: 't', xLabel: 'x', yLabel: 'y' }), /no data yet/);
  // a time axis shows clock times, with the date when its ends fall on different days (epochs of days)
  const t0 = Date.parse('2026-01-01T00:10:00Z');
  const day = lineChartSvg(
    [
      { x: t0, y: 0 },
      { x: t0 + 3_600_000, y: 1 },
    ],
    { title: 't', xLabel: 'x', yLabel: 'y', time: true },
  );
  assert.match(day, />00:10:00</);
  const days = lineChartSvg(
    [
      { x: t0, y: 0 },
      { x: t0 + 86_400_000, y: 1 },
    ],
    { title: 't', xLabel: 'x', yLabel: 'y', time: true },
  );
  assert.match(days, />2026-01-01 00:10</);
  assert.match(days, />2026-01-02 00:10</);
});

test("user-level: the policy's sentence is the guarantee; drops by bound in words; epoch points only from rows that have them", () => {
  const user = {
    ...status,
    privacy: {
      ...status.privacy,
      unit: 'user',
      statement:
        'user-level (eps 0.5, delta 1e-5) per 30-day epoch, for users contributing at most 1 reward per release and 2 releases per epoch; ...',
    },
  };
  assert.equal(
    guaranteeText(user),
    'User-level (eps 0.5, delta 1e-5) per 30-day epoch, for users contributing at most 1 reward per release and 2 releases per epoch; ... Each reward enters one release.',
  );
  assert.equal(droppedText(undefined), 'none (no contribution bound)');
  assert.equal(
    droppedText({ perRelease: 2, perEpoch: 1, total: 3 }),
    '3 (2 past c rewards in a release, 1 past m releases in an epoch)',
  );
  const rows = [
    { version: 1, time: '2026-01-01T00:00:00Z', rewards: 3, releases: 1, rounds: 3, spent: { epsilon: 0.3 } },
    {
      version: 2,
      time: '2026-01-02T00:00:00Z',
      rewards: 3,
      releases: 1,
      rounds: 6,
      spent: {
        epsilon: 0.5,
        releaseEpoch: { index: 7, releases: 2, guarantee: { epsilon: 0.4, compositions: 2 } },
      },
    },
  ];
  assert.deepEqual(epochBudgetSeries(rows), [
    {
      t: Date.parse('2026-01-02T00:00:00Z'),
      version: 2,
      epoch: 7,
      epsilon: 0.4,
      compositions: 2,
      releases: 2,
    },
  ]);
});
