/**
 * The binary rank body (application/x-adaprivate-rank): the codec is exact and refuses malformed
 * bodies with a reason; the server decides from it as from the same request in JSON (the stored and
 * exported features are the bits sent), and the route's rules (schema, dimension, limits) apply to it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BINARY_RANK_TYPE,
  BinaryRankError,
  decodeBinaryRank,
  encodeBinaryRank,
  PACKED_FEATURES,
  type PackedRankRequest,
} from '../../src/service/binaryRank.js';
import { startTestServer, TEST_KEY } from './testServer.js';

// values whose decimal text needs all 17 digits, a subnormal, -0
const FEATURES = new Float64Array([0.1 + 0.2, 1 / 3, 5e-324, -0, 3, 4]);

test('binary rank codec: a round trip gives the JSON request, bit-exact; the layout is the documented one', () => {
  const body = encodeBinaryRank({ eventId: 'e-1', unit: 'u', armIds: ['a', 'b', 'c'], features: FEATURES });
  assert.equal(new TextDecoder().decode(body.subarray(0, 4)), 'APR1');
  const h = new DataView(body.buffer).getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(body.subarray(8, 8 + h)));
  assert.deepEqual(header, { eventId: 'e-1', unit: 'u', arms: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
  const start = Math.ceil((8 + h) / 8) * 8;
  assert.equal(body.length, start + 8 * FEATURES.length);
  const req = decodeBinaryRank(body, JSON.parse) as PackedRankRequest;
  // the header as sent (arms without features: the route's schema checks it), the features packed
  assert.deepEqual(Object.keys(req), ['eventId', 'unit', 'arms']);
  assert.deepEqual(req.arms, [{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  const flat = req[PACKED_FEATURES];
  assert.ok(flat instanceof Float64Array);
  assert.equal(flat.length, FEATURES.length);
  for (const [i, x] of flat.entries()) assert.ok(Object.is(x, FEATURES[i]), `value ${i}`);
  // no JSON text or spread carries the packed block
  assert.equal(
    JSON.stringify(req),
    JSON.stringify({ eventId: 'e-1', unit: 'u', arms: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] }),
  );
  assert.throws(
    () => encodeBinaryRank({ armIds: ['a', 'b'], features: new Float64Array(3) }),
    /armIds.length \(2\) x dim values/,
  );
});

test('binary rank codec: malformed bodies are refused with the reason', () => {
  const good = encodeBinaryRank({ armIds: ['a', 'b'], features: new Float64Array([1, 2, 3, 4]) });
  const bad = (mutate: (b: Uint8Array) => Uint8Array, why: RegExp) =>
    assert.throws(
      () => decodeBinaryRank(mutate(good.slice()), JSON.parse),
      (e: Error) => {
        assert.ok(e instanceof BinaryRankError, e.message);
        assert.match(e.message, why);
        return true;
      },
    );
  bad((b) => {
    b[0] = 0x58;
    return b;
  }, /starts with the 4 bytes APR1/);
  bad((b) => {
    new DataView(b.buffer).setUint32(4, 1e6, true);
    return b;
  }, /runs past the end/);
  bad((b) => b.subarray(0, b.length - 8), /K x d Float64 values for the header's K = 2 arms/);
  bad((b) => {
    new DataView(b.buffer).setFloat64(b.length - 8, Number.NaN, true);
    return b;
  }, /arms\[1\]\.features\[1\] is NaN; features must be finite/);
  bad((b) => {
    new DataView(b.buffer).setFloat64(b.length - 16, Number.POSITIVE_INFINITY, true);
    return b;
  }, /arms\[1\]\.features\[0\] is Infinity/);
  const h = new DataView(good.buffer).getUint32(4, true);
  if ((8 + h) % 8 !== 0) {
    bad((b) => {
      b[8 + h] = 1;
      return b;
    }, /padding after the header must be zero/);
  }
  const withFeatures = (header: unknown): Uint8Array => {
    const text = new TextEncoder().encode(JSON.stringify(header));
    const start = Math.ceil((8 + text.length) / 8) * 8;
    const out = new Uint8Array(start + 16);
    const v = new DataView(out.buffer);
    v.setUint32(0, 0x31525041, true);
    v.setUint32(4, text.length, true);
    out.set(text, 8);
    return out;
  };
  assert.throws(
    () => decodeBinaryRank(withFeatures({ arms: [{ id: 'a', features: [1, 2] }] }), JSON.parse),
    /has "features" in the header/,
  );
  assert.throws(() => decodeBinaryRank(withFeatures([1]), JSON.parse), /header must be a JSON object/);
  assert.throws(
    () => decodeBinaryRank(withFeatures({ arms: [] }), JSON.parse),
    /"arms", an array of at least one/,
  );
});

test('binary rank body: the server decides from it as from JSON, stores the bits sent, and applies the route rules', async () => {
  const s = await startTestServer();
  try {
    await s.client.createModel('m', {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 1000, epsilon: 1 },
    });
    const d = await s.client.rankPacked('m', { eventId: 'b1', armIds: ['a', 'b', 'c'], features: FEATURES });
    assert.equal(d.eventId, 'b1');
    assert.ok(d.chosen >= 0 && d.chosen < 3);
    assert.equal(d.chosenId, ['a', 'b', 'c'][d.chosen]);
    await s.client.reward('m', { eventId: 'b1', reward: 1 });
    const lines: { eventId: string; arms: { id: string; features: number[] }[] }[] = [];
    for await (const l of s.client.iterateDecisions('m')) lines.push(l as unknown as (typeof lines)[number]);
    assert.equal(lines.length, 1);
    const flat = lines[0]!.arms.flatMap((a) => a.features);
    // the bits sent (JSON writes -0 as 0, as for a JSON rank)
    for (const [i, x] of flat.entries()) assert.ok(x === FEATURES[i], `exported value ${i}`);

    const post = async (body: Uint8Array) => {
      const r = await fetch(`${s.url}/v1/models/m/rank`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': BINARY_RANK_TYPE },
        body,
      });
      return { status: r.status, body: (await r.json()) as { code: string; message: string } };
    };
    const wrongDim = await post(encodeBinaryRank({ armIds: ['a', 'b'], features: new Float64Array(6) }));
    assert.equal(wrongDim.status, 400);
    assert.equal(wrongDim.body.code, 'dimension_mismatch');
    const malformed = await post(new Uint8Array([1, 2, 3]));
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'invalid_binary_body');
    assert.match(malformed.body.message, /^application\/x-adaprivate-rank: a binary rank body starts with/);
    // the schema of the JSON route checks the request it stands for (an unknown field)
    const header = new TextEncoder().encode(JSON.stringify({ colour: 'red', arms: [{ id: 'a' }] }));
    const start = Math.ceil((8 + header.length) / 8) * 8;
    const extra = new Uint8Array(start + 16);
    new DataView(extra.buffer).setUint32(0, 0x31525041, true);
    new DataView(extra.buffer).setUint32(4, header.length, true);
    extra.set(header, 8);
    const unknown = await post(extra);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'invalid_request');
    // prototype poisoning in the header is refused as in a JSON body
    const poison = new TextEncoder().encode('{"__proto__":{"x":1},"arms":[{"id":"a"}]}');
    const pStart = Math.ceil((8 + poison.length) / 8) * 8;
    const p = new Uint8Array(pStart + 16);
    new DataView(p.buffer).setUint32(0, 0x31525041, true);
    new DataView(p.buffer).setUint32(4, poison.length, true);
    p.set(poison, 8);
    assert.equal((await post(p)).status, 400);
    // the header's rules: distinct arm ids, at most the server's arms limit
    const dup = await post(encodeBinaryRank({ armIds: ['a', 'a'], features: new Float64Array(4) }));
    assert.equal(dup.status, 400);
    assert.equal(dup.body.code, 'duplicate_arm_id');
    const many = 1 + 1000;
    const tooMany = await post(
      encodeBinaryRank({
        armIds: Array.from({ length: many }, (_, i) => `a${i}`),
        features: new Float64Array(2 * many),
      }),
    );
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.code, 'invalid_request');
    assert.match(tooMany.body.message, /arms/);
    // any other media type is refused before a schema would be skipped
    const text = await fetch(`${s.url}/v1/models/m/rank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'text/plain' },
      body: JSON.stringify({ arms: [{ id: 'a', features: [1, 0] }] }),
    });
    assert.equal(text.status, 415);
    assert.equal(((await text.json()) as { code: string }).code, 'unsupported_media_type');
    // JSON with a charset parameter is still JSON, checked by the JSON schema
    const charset = await fetch(`${s.url}/v1/models/m/rank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ arms: [{ id: 'a' }] }),
    });
    assert.equal(charset.status, 400);
    assert.equal(((await charset.json()) as { code: string }).code, 'invalid_request');
    assert.equal((await s.client.status('m')).decisions, 1, 'no refused body stored a decision');
  } finally {
    await s.close();
  }
});
