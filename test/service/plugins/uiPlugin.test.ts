import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { budgetSeries, rewardRate } from '../../../src/service/ui/dashboardData.js';
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
