/**
 * Operations (issue 26): the export pages by a cursor each line carries (and the client iterates);
 * delta above 1e-3 is refused (400 from HTTP, RangeError from the library) unless allowLargeDelta;
 * a changed lambda is a changed privacy parameter; a non-private model's status says so in words;
 * API keys of at least 32 characters; failed authentication is rate-limited per address.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPolicy } from '../../src/policies/index.js';
import { ApiKeys } from '../../src/service/index.js';
import { startTestServer, TEST_KEY } from './testServer.js';

const ARMS = [
  { id: 'a', features: [0.6, 0.8] },
  { id: 'b', features: [0, 1] },
];

test('export: every line carries its cursor; ?after=<cursor> continues after it; the client iterates pages', async () => {
  const t = await startTestServer();
  try {
    for (const m of ['p1', 'p2']) {
      await t.client.createModel(m, { policy: 'lints', options: { dim: 2, horizon: 100, seed: 1 } });
    }
    // interleaved: the cursors of one model are not consecutive numbers
    for (let i = 0; i < 7; i++) {
      await t.client.rank('p1', { eventId: `a${i}`, arms: ARMS });
      await t.client.rank('p2', { eventId: `b${i}`, arms: ARMS });
    }
    const all = await t.client.exportDecisions('p1');
    assert.deepEqual(
      all.map((l) => l.eventId),
      ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6'],
    );
    for (const l of all) assert.match(l.cursor, /^[0-9]+$/);
    const page1 = await t.client.exportDecisions('p1', { limit: 3 });
    const page2 = await t.client.exportDecisions('p1', { limit: 3, after: page1[2]!.cursor });
    assert.deepEqual(
      [...page1, ...page2].map((l) => l.eventId),
      ['a0', 'a1', 'a2', 'a3', 'a4', 'a5'],
    );
    const seen: string[] = [];
    for await (const l of t.client.iterateDecisions('p1', { pageSize: 2 })) seen.push(l.eventId);
    assert.deepEqual(seen, ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
    const rest: string[] = [];
    for await (const l of t.client.iterateDecisions('p1', { pageSize: 4, after: all[4]!.cursor }))
      rest.push(l.eventId);
    assert.deepEqual(rest, ['a5', 'a6']);
  } finally {
    await t.close();
  }
});

test('delta above 1e-3 is refused with the reason (library and HTTP 400), unless allowLargeDelta', async () => {
  const base = { dim: 2, horizon: 1000, seed: 1, epsilon: 1 };
  assert.throws(
    () => createPolicy('adaprivate-ts', { ...base, delta: 0.5 }),
    /delta must be at most 0\.001 .*Got 0\.5\. A large delta cuts the noise .*allowLargeDelta: true/,
  );
  assert.equal(createPolicy('adaprivate-ts', { ...base, delta: 1e-3 }).config.delta, 1e-3);
  assert.equal(
    createPolicy('adaprivate-ts', { ...base, delta: 0.5, allowLargeDelta: true }).config.delta,
    0.5,
  );
  assert.throws(
    () => createPolicy('lints', { dim: 2, horizon: 10, seed: 1, allowLargeDelta: true } as never),
    /unknown option 'allowLargeDelta'/,
  );
  const t = await startTestServer();
  try {
    const r = await t.raw('PUT', '/v1/models/big-delta', {
      policy: 'adaprivate-ts',
      options: { ...base, delta: 0.5 },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'invalid_options');
    assert.match(r.body.message, /delta must be at most 0\.001/);
    const ok = await t.raw('PUT', '/v1/models/big-delta', {
      policy: 'adaprivate-ts',
      options: { ...base, delta: 0.5, allowLargeDelta: true },
    });
    assert.equal(ok.status, 201);
  } finally {
    await t.close();
  }
});

test('a changed lambda answers privacy_parameters_changed (not model_exists)', async () => {
  const t = await startTestServer();
  try {
    const m = { policy: 'adaprivate-ts', options: { dim: 2, horizon: 1000, seed: 1, epsilon: 1 } };
    assert.equal((await t.raw('PUT', '/v1/models/lam', m)).status, 201);
    const r = await t.raw('PUT', '/v1/models/lam', { ...m, options: { ...m.options, lambda: 3 } });
    assert.equal(r.status, 409);
    assert.equal(r.body.code, 'privacy_parameters_changed');
  } finally {
    await t.close();
  }
});

test("a non-private model's status says in words that it is not private", async () => {
  const t = await startTestServer();
  try {
    await t.client.createModel('open', { policy: 'linucb', options: { dim: 2, horizon: 100, seed: 1 } });
    const s = (await t.raw('GET', '/v1/models/open')).body;
    assert.equal(s.private, false);
    assert.match(s.guarantee, /^none: 'linucb' is not a private policy/);
    await t.client.createModel('closed', {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 100, seed: 1, epsilon: 1 },
    });
    const p = (await t.raw('GET', '/v1/models/closed')).body;
    assert.equal(p.private, true);
    assert.match(p.guarantee, /^differential privacy/);
  } finally {
    await t.close();
  }
});

test('API keys: at least 32 characters', () => {
  assert.throws(() => new ApiKeys(['k'.repeat(31)]), /at least 32 characters/);
  assert.doesNotThrow(() => new ApiKeys(['k'.repeat(32)]));
});

test('failed authentication is rate-limited per address: after the limit every request gets 429, the right key too', async () => {
  const t = await startTestServer({ authFailureLimit: { maxFailures: 3, windowMs: 600_000 } });
  try {
    const get = (key: string) => fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal((await get(TEST_KEY)).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await get(`wrong-${i}`)).status, 401);
    const blocked = await get('wrong-3');
    assert.equal(blocked.status, 429);
    assert.equal(((await blocked.json()) as { code: string }).code, 'too_many_auth_failures');
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    assert.equal((await get(TEST_KEY)).status, 429, 'a blocked address learns nothing about the keys');
  } finally {
    await t.close();
  }
});

test("the dashboard's data route counts wrong keys with the /v1 routes: guessing keys there is rate-limited too", async () => {
  const t = await startTestServer({ authFailureLimit: { maxFailures: 3, windowMs: 600_000 } });
  try {
    await t.client.createModel('m', { policy: 'linucb', options: { dim: 2, horizon: 100, seed: 1 } });
    const ui = (key: string) =>
      fetch(`${t.url}/ui/api/models/m/rewards`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal((await ui(TEST_KEY)).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await ui(`wrong-${i}`)).status, 401);
    const blocked = await ui('wrong-3');
    assert.equal(blocked.status, 429);
    assert.equal(((await blocked.json()) as { code: string }).code, 'too_many_auth_failures');
    // one limit per address: the /v1 routes are blocked by the failures counted at /ui, and back
    const v1 = await fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    assert.equal(v1.status, 429);
    assert.equal((await ui(TEST_KEY)).status, 429);
  } finally {
    await t.close();
  }
});

test('the OpenAPI document puts the API-key requirement on every /v1 operation and on /metrics, not on /health', async () => {
  const t = await startTestServer();
  try {
    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    let n = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (path.startsWith('/v1/') || path === '/metrics') {
          assert.deepEqual(op.security, [{ apiKey: [] }], `${method} ${path}`);
          n++;
        } else assert.deepEqual(op.security ?? [], [], `${method} ${path}`); // none, or [] (explicitly none)
      }
    }
    assert.ok(n >= 9, `${n} operations`);
  } finally {
    await t.close();
  }
});
