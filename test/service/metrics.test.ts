/**
 * /metrics (issue 26): behind the API key by default (open only with `openMetrics`), and no
 * per-reward signal: with the documented `defaultReward` pattern (a reward request only for a
 * click), what /metrics shows does not change with a reward before its batch is released.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestServer, TEST_KEY } from './testServer.js';

const ARMS = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
];

test('/metrics: 401 without the key (and with a wrong one), 200 with it; openMetrics serves it without', async () => {
  const t = await startTestServer();
  try {
    assert.equal((await fetch(`${t.url}/metrics`)).status, 401);
    const wrong = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer x${TEST_KEY}` } });
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { code: string }).code, 'unauthorized');
    const ok = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /adaprivate_releases_total/);
  } finally {
    await t.close();
  }
  const open = await startTestServer({ openMetrics: true });
  try {
    assert.equal((await fetch(`${open.url}/metrics`)).status, 200);
  } finally {
    await open.close();
  }
});

/** The metrics text without the lines of the /metrics route itself (each read counts itself). */
async function metricsSeen(t: Awaited<ReturnType<typeof startTestServer>>): Promise<string> {
  const text = (await t.raw('GET', '/metrics')).text;
  return text
    .split('\n')
    .filter((l) => !l.includes('route="/metrics"'))
    .join('\n');
}

test('/metrics: a reward (single or batched, accepted or refused) changes nothing it shows until its batch is released', async () => {
  const t = await startTestServer();
  try {
    await t.client.createModel('clicks', {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 1000, epsilon: 1, batchSize: 3, seed: 3 },
      defaultReward: 0,
      rewardWindowSeconds: 60,
    });
    for (const e of ['e1', 'e2', 'e3', 'e4']) await t.client.rank('clicks', { eventId: e, arms: ARMS });
    const before = await metricsSeen(t);
    assert.match(before, /adaprivate_decisions_total\{model="clicks"\} 4/);
    await t.client.reward('clicks', { eventId: 'e1', reward: 1 }); // the click of e1
    assert.equal(await metricsSeen(t), before, 'a recorded reward showed in /metrics');
    await t.raw('POST', '/v1/models/clicks/rewards', { eventId: 'e1', reward: 1 }); // 409 duplicate
    await t.client.rewardBatch('clicks', [{ eventId: 'e2', reward: 1 }]);
    assert.equal(await metricsSeen(t), before, 'a duplicate or batched reward showed in /metrics');
    const r = await t.client.reward('clicks', { eventId: 'e3', reward: 0 });
    assert.equal(r.released, true);
    assert.match(await metricsSeen(t), /adaprivate_releases_total\{model="clicks"\} 1/);
  } finally {
    await t.close();
  }
});
