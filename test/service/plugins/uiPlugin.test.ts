import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  budgetSeries,
  droppedText,
  epochBudgetSeries,
  guaranteeText,
  rewardRate,
} from '../../../src/service/ui/dashboardData.js';
import { startTestServer, TEST_KEY, type TestServer } from '../testServer.js';

const ARMS = [
  { id: 'a', features: [1, 0] },
  { id: 'b', features: [0, 1] },
];
const TS = {
  policy: 'adaprivate-ts',
  options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 3, seed: 7 },
  logRewards: true,
};

let t: TestServer;
before(async () => {
  t = await startTestServer();
  await t.client.createModel('dash', TS);
  // 7 rewarded rounds (two releases of 3), one decision still waiting for its reward
  for (let i = 0; i < 7; i++) {
    const d = await t.client.rank('dash', { arms: ARMS });
    t.advance(60_000);
    await t.client.reward('dash', { eventId: d.eventId, reward: i % 2 });
  }
  await t.client.rank('dash', { eventId: 'late', arms: ARMS });
});
after(() => t.close());

test('GET /ui serves the dashboard page and its script; the data behind it needs the key', async () => {
  const page = await fetch(`${t.url}/ui`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const html = await page.text();
  assert.match(html, /<title>adaprivate dashboard<\/title>/);
  assert.match(html, /sessionStorage/, 'the key stays in the tab');
  assert.ok(!html.includes(TEST_KEY));
  const withKey = await t.raw('GET', '/ui');
  assert.equal(withKey.status, 200);
  assert.equal(withKey.text, html);
  const js = await fetch(`${t.url}/ui/dashboardData.js`);
  assert.equal(js.status, 200);
  const src = await js.text();
  assert.match(src, /export function budgetSeries/);
  assert.doesNotMatch(src, /\bimport\b|require\(/, 'the browser module has no imports');
  // the data: 401 without the key, on /v1 and on the dashboard's own route
  for (const path of ['/v1/models/dash/ledger', '/ui/api/models/dash/rewards']) {
    const r = await fetch(`${t.url}${path}`);
    assert.equal(r.status, 401, path);
    assert.equal(((await r.json()) as { code: string }).code, 'unauthorized');
  }
});

test('the budget chart data equals the ledger rows; the reward sums equal the rewards given', async () => {
  const ledger = (await t.raw('GET', '/v1/models/dash/ledger')).body;
  assert.equal(ledger.releases.length, 2, 'two releases of batchSize 3');
  const series = budgetSeries(ledger.releases);
  assert.deepEqual(
    series.map((p) => [p.t, p.version, p.epsilon, p.rewards]),
    ledger.releases.map(
      (r: { time: string; version: number; spent: { epsilon: number }; rewards: number }) => [
        Date.parse(r.time),
        r.version,
        r.spent.epsilon,
        r.rewards,
      ],
    ),
  );
  assert.ok(series[1]!.epsilon > 0 && series[1]!.epsilon <= 1 + 1e-9);
  assert.equal(series.at(-1)!.releases, ledger.privacy.releases);
  const rw = (await t.raw('GET', '/ui/api/models/dash/rewards')).body;
  // rewards 0,1,0,1,0,1,0: n = 7, sum 3; the 8th decision is waiting
  assert.deepEqual([rw.logged, rw.n, rw.sum, rw.sumSquares, rw.given, rw.waiting], [true, 7, 3, 3, 7, 1]);
  await t.client.reward('dash', { eventId: 'late', reward: 1 });
  const rw2 = (await t.raw('GET', '/ui/api/models/dash/rewards')).body;
  assert.deepEqual([rw2.n, rw2.sum, rw2.waiting], [8, 4, 0], 'a late reward is counted once');
  const rate = rewardRate(rw2)!;
  assert.equal(rate.mean, 0.5);
  assert.ok(rate.lo < 0.5 && rate.hi > 0.5 && rate.lo >= 0 && rate.hi <= 1);
});

test('a model that does not log rewards has no reward rate', async () => {
  await t.client.createModel('quiet', { ...TS, logRewards: false });
  const r = (await t.raw('GET', '/ui/api/models/quiet/rewards')).body;
  assert.equal(r.logged, false);
});

test('user-level model: the per-epoch budget chart data equals the ledger rows; per epoch it restarts, the cumulative one composes the epochs', async () => {
  const DAY = 86_400_000;
  await t.client.createModel('people', {
    policy: 'adaprivate-ts',
    options: {
      dim: 2,
      horizon: 1000,
      epsilon: 1,
      batchSize: 2,
      seed: 7,
      privacyUnit: 'user',
      releasesPerEpoch: 2,
      epochDays: 1,
    },
  });
  const give = async (unit: string) => {
    const d = await t.client.rank('people', { unit, arms: ARMS });
    return t.client.reward('people', { eventId: d.eventId, reward: 1 });
  };
  // day 0: releases 1 (u1 u2) and 2 (u1 u3); u1's third release of the epoch is dropped; u4 waits
  await give('u1');
  await give('u2');
  await give('u1');
  await give('u3');
  assert.equal((await give('u1')).dropped, 'perEpoch');
  await give('u4');
  // day 1: the first reward releases u4's partial batch of day 0 (release 3), then u1 counts again
  t.advance(DAY);
  await give('u1');
  assert.equal((await give('u2')).released, true);
  const ledger = (await t.raw('GET', '/v1/models/people/ledger')).body;
  const status = (await t.raw('GET', '/v1/models/people')).body;
  const rows = ledger.releases as {
    time: string;
    version: number;
    spent: {
      epsilon: number;
      releaseEpoch: { index: number; releases: number; guarantee: { epsilon: number; compositions: number } };
    };
  }[];
  assert.equal(rows.length, 4);
  const series = epochBudgetSeries(ledger.releases);
  // the chart's data is the ledger's rows, one point per release
  assert.deepEqual(
    series.map((p) => [p.t, p.version, p.epoch, p.epsilon, p.compositions, p.releases]),
    rows.map((r) => [
      Date.parse(r.time),
      r.version,
      r.spent.releaseEpoch.index,
      r.spent.releaseEpoch.guarantee.epsilon,
      r.spent.releaseEpoch.guarantee.compositions,
      r.spent.releaseEpoch.releases,
    ]),
  );
  // and what the rows say is right: releases 1-3 hold day 0's data, release 4 day 1's; a unit takes
  // part in at most m = 2 releases of an epoch, so compositions are min(2, releases of the epoch)
  const e0 = series[0]!.epoch;
  assert.deepEqual(
    series.map((p) => [p.epoch - e0, p.releases, p.compositions]),
    [
      [0, 1, 1],
      [0, 2, 2],
      [0, 3, 2],
      [1, 1, 1],
    ],
  );
  assert.equal(series[3]!.epsilon, series[0]!.epsilon, 'a new epoch starts from one composition');
  assert.equal(series[2]!.epsilon, series[1]!.epsilon);
  assert.ok(
    series[1]!.epsilon > series[0]!.epsilon && series[1]!.epsilon <= 1 + 1e-9,
    'within the target per epoch',
  );
  assert.ok(
    Math.abs(series[1]!.epsilon - status.privacy.perEpoch.epsilon) < 1e-12,
    'the worst epoch is the status',
  );
  // the cumulative chart (budgetSeries) composes the epochs: 2 + 1 compositions at the end
  const cumulative = budgetSeries(ledger.releases);
  assert.equal(cumulative.at(-1)!.epsilon, status.privacy.epsilon);
  assert.equal(status.privacy.cumulative.compositions, 3);
  assert.ok(cumulative.at(-1)!.epsilon > series[1]!.epsilon);
  // the guarantee in words (the note says that epochs compose) and the drops by bound
  assert.match(status.budget.note, /the cumulative one grows with each new epoch/);
  assert.match(
    guaranteeText(status),
    /^User-level \(eps [0-9.]+, delta 1e-5\) per 1-day epoch, for users contributing at most 1 reward per release and 2 releases per epoch; cumulative over the 2 epochs/,
  );
  assert.equal(
    droppedText(status.privacy.dropped),
    '1 (0 past c rewards in a release, 1 past m releases in an epoch)',
  );
});
