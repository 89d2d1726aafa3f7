/**
 * One clipping rule (issue 26): the chosen arm's features stored for learning are clipped by the
 * library's rule, so an arm with a huge finite coordinate (1e200, whose squared norm overflows)
 * becomes a unit vector, as the library makes it, not a zero vector (the service's own copy did).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestServer } from './testServer.js';

test('an arm with a coordinate of 1e200 is stored and learned as a unit vector, not zeroed', async () => {
  const t = await startTestServer();
  try {
    await t.client.createModel('huge', { policy: 'lints', options: { dim: 3, horizon: 100, seed: 1 } });
    const d = await t.client.rank('huge', {
      eventId: 'e',
      arms: [{ id: 'x', features: [1e200, -1e200, 0] }],
    });
    assert.equal(d.chosen, 0);
    const target = await t.server.store.rewardTarget('huge', 'e');
    const f = Array.from(target!.chosenFeatures);
    assert.ok(
      Math.abs(f[0]! - Math.SQRT1_2) < 1e-15 && Math.abs(f[1]! + Math.SQRT1_2) < 1e-15 && f[2] === 0,
      `stored ${f}`,
    );
    assert.equal((await t.client.reward('huge', { eventId: 'e', reward: 1 })).status, 'recorded');
    const s = (await t.raw('GET', '/v1/models/huge')).body;
    assert.equal(s.clippedFeatures, 1);
  } finally {
    await t.close();
  }
});
