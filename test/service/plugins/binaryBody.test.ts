/**
 * The rank routes' body parts (src/service/plugins/binaryBody.ts) on a bare Fastify app: with a fast
 * JSON reader, the JSON bodies of the rank route's context go through it, and what it reads is
 * checked against the binary header's schema; routes outside that context, the bodies it leaves and
 * the bodies on which it throws go to JSON.parse and the JSON schema.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { decodeBinaryRank, PACKED_FEATURES, type RankInput } from '../../../src/service/binaryRank.js';
import { DEFAULT_LIMITS, rankBinaryHeader, rankBody } from '../../../src/service/contract.js';
import { rankBodyRoute } from '../../../src/service/plugins/binaryBody.js';
import { FAST_RANK_JSON, fastRankJson } from '../../../src/service/rankJson.js';

async function app(fast: (bytes: Uint8Array) => object | null) {
  const a = Fastify({
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  });
  const seen: string[] = [];
  // the rank route (in a context of its own), another route beside it
  await rankBodyRoute(
    a,
    {
      decode: decodeBinaryRank,
      json: rankBody(DEFAULT_LIMITS),
      header: rankBinaryHeader(DEFAULT_LIMITS),
      layout: 'bytes',
      fast: (b) => {
        seen.push('fast');
        return fast(b);
      },
    },
    (p, body) => {
      p.post<{ Body: RankInput }>('/rank', { ...body.route, schema: { body: body.body } }, async (req) => ({
        fast: FAST_RANK_JSON in req.body,
        packed: PACKED_FEATURES in req.body ? [...req.body[PACKED_FEATURES]] : null,
        ids: req.body.arms.map((x) => x.id),
      }));
    },
  );
  a.post<{ Body: { x: number } }>(
    '/other',
    { schema: { body: { type: 'object', properties: { x: { type: 'number' } } } } },
    async (req) => req.body,
  );
  await a.ready();
  const post = async (url: string, payload: string) => {
    const r = await a.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': 'application/json' },
    });
    return { status: r.statusCode, body: r.json() as Record<string, unknown> };
  };
  return { a, seen, post };
}

test("binaryBody: the fast JSON reader takes the rank route's bodies, checked by the header schema; other routes and left or failed bodies take JSON.parse and the JSON schema", async () => {
  const t = await app((b) => fastRankJson(b, DEFAULT_LIMITS));
  try {
    const ok = await t.post('/rank', '{"arms":[{"id":"a","features":[0.5,1]}]}');
    assert.deepEqual(ok, { status: 200, body: { fast: true, packed: [0.5, 1], ids: ['a'] } });
    // left by the reader (an exponent): JSON.parse, then the JSON schema
    const left = await t.post('/rank', '{"arms":[{"id":"a","features":[5e-1,1]}]}');
    assert.deepEqual(left, { status: 200, body: { fast: false, packed: null, ids: ['a'] } });
    const invalid = await t.post('/rank', '{"arms":[{"id":"a","features":["x"]}]}');
    assert.equal(invalid.status, 400);
    assert.match(String(invalid.body.message), /features\/0 must be number/);
    // a route outside the rank route's context: never the fast reader
    const seenBefore = t.seen.length;
    assert.deepEqual(await t.post('/other', '{"x":1}'), { status: 200, body: { x: 1 } });
    assert.equal(t.seen.length, seenBefore);
  } finally {
    await t.a.close();
  }
  const broken = await app(() => {
    throw new Error('a fault in the fast reader');
  });
  try {
    const r = await broken.post('/rank', '{"arms":[{"id":"a","features":[0.5,1]}]}');
    assert.deepEqual(r, { status: 200, body: { fast: false, packed: null, ids: ['a'] } });
  } finally {
    await broken.a.close();
  }
  // a body marked as read but without features passes only the header schema: the marker is what
  // selects it (a JSON text cannot carry the symbol key)
  const marked = await app(() => ({
    arms: [{ id: 'a' }],
    [PACKED_FEATURES]: new Float64Array([2]),
    [FAST_RANK_JSON]: true,
  }));
  try {
    assert.deepEqual(await marked.post('/rank', '{}'), {
      status: 200,
      body: { fast: true, packed: [2], ids: ['a'] },
    });
  } finally {
    await marked.a.close();
  }
});
