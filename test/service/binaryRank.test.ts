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
  decodeBinaryRankBatch,
  encodeBinaryRank,
  encodeBinaryRankBatch,
  PACKED_FEATURES,
  type PackedRankRequest,
} from '../../src/service/binaryRank.js';
import { startTestServer, TEST_KEY } from './testServer.js';

// values whose decimal text needs all 17 digits, a subnormal, -0
const FEATURES = new Float64Array([0.1 + 0.2, 1 / 3, 5e-324, -0, 3, 4]);

/** A frame with `header` (or, given a string, that text) as its JSON header and `values` zero Float64 values. */
function rawFrame(header: unknown, values = 2): Uint8Array {
  const text = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  const start = Math.ceil((8 + text.length) / 8) * 8;
  const out = new Uint8Array(start + 8 * values);
  new DataView(out.buffer).setUint32(0, 0x31525041, true);
  new DataView(out.buffer).setUint32(4, text.length, true);
  out.set(text, 8);
  return out;
}

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
  assert.throws(
    () => decodeBinaryRank(rawFrame({ arms: [{ id: 'a', features: [1, 2] }] }), JSON.parse),
    /has "features" in the header/,
  );
  assert.throws(() => decodeBinaryRank(rawFrame([1]), JSON.parse), /header must be a JSON object/);
  assert.throws(
    () => decodeBinaryRank(rawFrame({ arms: [] }), JSON.parse),
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
    const extra = rawFrame({ colour: 'red', arms: [{ id: 'a' }] });
    const unknown = await post(extra);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'invalid_request');
    // prototype poisoning in the header is refused as in a JSON body
    const p = rawFrame('{"__proto__":{"x":1},"arms":[{"id":"a"}]}');
    const poisoned = await post(p);
    assert.equal(poisoned.status, 400);
    assert.equal(poisoned.body.code, 'invalid_json');
    assert.match(poisoned.body.message, /^application\/x-adaprivate-rank: the JSON header/);
    // also \u-escaped, and a "constructor" key (../jsonBody.ts: the fast path never takes them)
    const escaped = rawFrame('{"\\u005f_proto__":{"x":1},"arms":[{"id":"a"}]}');
    assert.equal((await post(escaped)).body.code, 'invalid_json');
    const ctor = rawFrame('{"constructor":{"prototype":{"x":1}},"arms":[{"id":"a"}]}');
    assert.equal((await post(ctor)).body.code, 'invalid_json');
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

test('binary rank/batch codec: events in order, each with its own block of one copy; malformed batches refused with the reason', () => {
  const events = [
    { eventId: 'e-1', armIds: ['a', 'b'], features: new Float64Array([0.1 + 0.2, 1 / 3, -0, 4]) },
    { unit: 'u', withProbabilities: true, armIds: ['c'], features: new Float64Array([5e-324, 6]) },
  ];
  const body = encodeBinaryRankBatch(events);
  const req = decodeBinaryRankBatch(body, JSON.parse) as { events: PackedRankRequest[] };
  assert.deepEqual(Object.keys(req), ['events']);
  assert.deepEqual(
    req.events.map((e) => ({ ...e, [PACKED_FEATURES]: Array.from(e[PACKED_FEATURES]) })),
    [
      { eventId: 'e-1', arms: [{ id: 'a' }, { id: 'b' }], [PACKED_FEATURES]: [0.1 + 0.2, 1 / 3, -0, 4] },
      { unit: 'u', withProbabilities: true, arms: [{ id: 'c' }], [PACKED_FEATURES]: [5e-324, 6] },
    ],
  );
  assert.ok(Object.is(req.events[0]![PACKED_FEATURES][2], -0));
  assert.equal(req.events[0]![PACKED_FEATURES].buffer, req.events[1]![PACKED_FEATURES].buffer, 'one copy');
  assert.throws(() => encodeBinaryRankBatch([]), /at least one event/);
  assert.throws(
    () => encodeBinaryRankBatch([events[0]!, { armIds: ['x'], features: new Float64Array(3) }]),
    /same dim; event 0 has 2, event 1 3/,
  );
  const bad = (b: Uint8Array, why: RegExp) =>
    assert.throws(
      () => decodeBinaryRankBatch(b, JSON.parse),
      (e: Error) => e instanceof BinaryRankError && why.test(e.message),
    );
  bad(encodeBinaryRank(events[0]!), /"events", an array of at least one/);
  const nan = body.slice();
  new DataView(nan.buffer).setFloat64(nan.length - 8, Number.NaN, true);
  bad(nan, /events\[1\]\.arms\[0\]\.features\[1\] is NaN/);
  bad(body.subarray(0, body.length - 8), /K x d Float64 values for the header's K = 3 arms/);
  // a single-event body is not a batch, and a batch is not a single event
  assert.throws(() => decodeBinaryRank(body, JSON.parse), /"arms", an array of at least one/);
});

test('binary rank/batch body: the server decides each event as from JSON; per-event failures stay per event', async () => {
  const s = await startTestServer();
  try {
    await s.client.createModel('m', {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 1000, epsilon: 1 },
    });
    const results = await s.client.rankBatchPacked('m', [
      { eventId: 'p1', armIds: ['a', 'b'], features: new Float64Array([0.1 + 0.2, 1 / 3, 0.5, -0.25]) },
      { eventId: 'p2', armIds: ['a', 'a'], features: new Float64Array([1, 0, 0, 1]) },
      { eventId: 'p3', armIds: ['c'], features: new Float64Array([0.75, 5e-324]) },
    ]);
    assert.deepEqual(
      results.map((r) => (r.ok ? 'ok' : r.code)),
      ['ok', 'duplicate_arm_id', 'ok'],
    );
    const lines: { eventId: string; arms: { id: string; features: number[] }[] }[] = [];
    for await (const l of s.client.iterateDecisions('m')) lines.push(l as unknown as (typeof lines)[number]);
    assert.deepEqual(
      lines.map((l) => [l.eventId, l.arms.flatMap((a) => a.features)]),
      [
        ['p1', [0.1 + 0.2, 1 / 3, 0.5, -0.25]],
        ['p3', [0.75, 5e-324]],
      ],
    );
    // every event of another dimension fails alone, as in JSON
    const wrong = await s.client.rankBatchPacked('m', [{ armIds: ['a'], features: new Float64Array(3) }]);
    assert.deepEqual(
      wrong.map((r) => (r.ok ? 'ok' : r.code)),
      ['dimension_mismatch'],
    );
    // the header's schema fails the whole request (an unknown field), a malformed body too
    const post = async (body: Uint8Array) => {
      const r = await fetch(`${s.url}/v1/models/m/rank/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': BINARY_RANK_TYPE },
        body,
      });
      return { status: r.status, code: ((await r.json()) as { code: string }).code };
    };
    const extra = rawFrame({ events: [{ colour: 1, arms: [{ id: 'a' }] }] });
    assert.deepEqual(await post(extra), { status: 400, code: 'invalid_request' });
    assert.deepEqual(await post(new Uint8Array([1, 2, 3])), { status: 400, code: 'invalid_binary_body' });
    const plain = await fetch(`${s.url}/v1/models/m/rank/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'text/plain' },
      body: '{"events":[]}',
    });
    assert.equal(plain.status, 415);
    assert.equal((await s.client.status('m')).decisions, 2, 'only the two good events stored decisions');
  } finally {
    await s.close();
  }
});
