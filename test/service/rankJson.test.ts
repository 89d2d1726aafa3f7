/**
 * The JSON rank bodies' fast path (src/service/rankJson.ts): whatever it reads is what JSON.parse and
 * the route's JSON schema make of the same text (features bit-exact, packed as a binary body's);
 * every other body it leaves to them (null). Then the server: the same answers either way, errors
 * included, and the bodies it read are counted by reader.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Value } from 'typebox/value';
import { PACKED_FEATURES, type PackedRankRequest } from '../../src/service/binaryRank.js';
import { DEFAULT_LIMITS, rankBatchBody, rankBody, type ServiceLimits } from '../../src/service/contract.js';
import { FAST_RANK_JSON, fastRankBatchJson, fastRankJson } from '../../src/service/rankJson.js';
import { startTestServer, TEST_KEY } from './testServer.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

interface JsonRank {
  eventId?: string;
  unit?: string;
  withProbabilities?: boolean;
  arms: { id: string; features: number[] }[];
}

/**
 * What the usual path makes of `text` for a rank route: the request packed (as the fast path packs
 * it), or null when JSON.parse refuses it, the JSON schema refuses it, or its arms' features differ
 * in length (the runtime then names the arm).
 */
function reference(text: string, limits: ServiceLimits): JsonRank | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Value.Check(rankBody(limits), v)) return null;
  const r = v as JsonRank;
  return r.arms.every((a) => a.features.length === r.arms[0]!.features.length) ? r : null;
}

/** Asserts that the packed request `got` is the JSON request `want`, features bit-exact. */
function assertSame(got: PackedRankRequest, want: JsonRank, where: string): void {
  assert.equal(got.eventId, want.eventId, `${where}: eventId`);
  assert.equal(got.unit, want.unit, `${where}: unit`);
  assert.equal(got.withProbabilities, want.withProbabilities, `${where}: withProbabilities`);
  assert.deepEqual(
    got.arms.map((a) => ({ ...a })),
    want.arms.map((a) => ({ id: a.id })),
    `${where}: arm ids`,
  );
  const flat = want.arms.flatMap((a) => a.features);
  const packed = got[PACKED_FEATURES];
  assert.equal(packed.length, flat.length, `${where}: feature count`);
  for (let i = 0; i < flat.length; i++) {
    assert.ok(
      Object.is(packed[i], flat[i]),
      `${where}: feature ${i} is ${packed[i]}, JSON.parse gives ${flat[i]}`,
    );
  }
  assert.deepEqual(
    Object.keys(got).sort(),
    Object.keys(want).sort(),
    `${where}: the same fields (no features key on arms)`,
  );
}

/** Number texts of every JSON form, the ones the fast path reads and the ones it leaves. */
const numberText = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
  fc
    .tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 12 }))
    .map(([x, k]) => x.toFixed(k)),
  fc
    .tuple(
      fc.constantFrom('', '-'),
      fc.stringMatching(/^(0|[1-9][0-9]{0,18})$/),
      fc.option(fc.stringMatching(/^[0-9]{1,25}$/), { nil: undefined }),
      fc.option(fc.stringMatching(/^[eE][+-]?[0-9]{1,3}$/), { nil: undefined }),
    )
    .map(([s, i, f, e]) => `${s}${i}${f === undefined ? '' : `.${f}`}${e ?? ''}`),
);

const ws = fc.constantFrom('', '', ' ', '\n  ', '\t', '\r\n');
const idText = fc.oneof(
  { arbitrary: fc.stringMatching(/^[a-z0-9-]{1,12}$/), weight: 20 },
  { arbitrary: fc.string({ minLength: 0, maxLength: 140 }), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      'a\\u0062',
      'caf\u00e9',
      'x'.repeat(128),
      'x'.repeat(129),
      'constructor',
      '__proto__',
    ),
    weight: 1,
  },
);
/** Mostly numbers the fast path reads (6 decimals, as clients often send), all the others too. */
const featureText = fc.oneof(
  { arbitrary: fc.double({ min: -2, max: 2, noNaN: true }).map((x) => x.toFixed(6)), weight: 12 },
  { arbitrary: numberText, weight: 1 },
);

/** A rank request's text: fields in any order, white space anywhere, ids and numbers of every kind. */
const rankText = fc
  .record({
    eventId: fc.option(idText, { nil: undefined }),
    unit: fc.option(idText, { nil: undefined }),
    withProbabilities: fc.option(
      fc.oneof({ arbitrary: fc.constantFrom('true', 'false'), weight: 8 }, fc.constantFrom('1', 'null')),
      { nil: undefined },
    ),
    // mostly within the limits of the test (3 arms, 3 features), sometimes 0 or one over
    d: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 3 }), weight: 8 }, fc.constantFrom(0, 4)),
    arms: fc
      .oneof({ arbitrary: fc.integer({ min: 1, max: 3 }), weight: 8 }, fc.constantFrom(0, 4))
      .chain((k) =>
        fc.array(fc.tuple(idText, fc.array(featureText, { minLength: 0, maxLength: 4 })), {
          minLength: k,
          maxLength: k,
        }),
      ),
    equalLengths: fc.integer({ min: 0, max: 7 }).map((x) => x > 0),
    extra: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 8 },
      fc.constantFrom('"colour":"red"', '"arms":[]', '"eventId":"again"'),
    ),
    order: fc.integer({ min: 0, max: 23 }),
    w: fc.array(ws, { minLength: 12, maxLength: 12 }),
  })
  .map((r) => {
    const w = (i: number) => r.w[i % r.w.length]!;
    const arms = r.arms.map(([id, nums]) => {
      const f = r.equalLengths
        ? Array.from({ length: r.d }, (_, i) => nums[i % Math.max(1, nums.length)] ?? '0.5')
        : nums;
      return `${w(0)}{${w(1)}"id"${w(2)}:${w(3)}${JSON.stringify(id)},"features":[${w(4)}${f.join(`${w(5)},${w(6)}`)}${w(7)}]}`;
    });
    const fields = [
      r.eventId === undefined ? null : `"eventId":${w(8)}${JSON.stringify(r.eventId)}`,
      r.unit === undefined ? null : `"unit":${JSON.stringify(r.unit)}`,
      r.withProbabilities === undefined ? null : `"withProbabilities":${w(9)}${r.withProbabilities}`,
      `"arms":[${arms.join(',')}${w(10)}]`,
    ].filter((x): x is string => x !== null);
    const k = r.order % fields.length;
    const ordered = [...fields.slice(k), ...fields.slice(0, k)];
    if (r.extra !== undefined) ordered.splice(r.order % (ordered.length + 1), 0, r.extra);
    // ids that JSON.stringify escapes stay escaped: the texts are JSON either way
    return `${w(11)}{${ordered.join(`,${w(2)}`)}}${w(1)}`;
  });

test('rank JSON fast path: every body it reads is what JSON.parse and the schema make of it, bit-exact; the rest it leaves', () => {
  const limits: ServiceLimits = { ...DEFAULT_LIMITS, arms: 3, features: 3 };
  let read = 0;
  let left = 0;
  fc.assert(
    fc.property(rankText, (text) => {
      const got = fastRankJson(bytes(text), limits) as
        | (PackedRankRequest & { [FAST_RANK_JSON]?: true })
        | null;
      const want = reference(text, limits);
      if (got === null) {
        left++;
        return;
      }
      read++;
      assert.notEqual(want, null, `the fast path read a body the usual path refuses: ${text}`);
      assert.equal(got[FAST_RANK_JSON], true);
      assertSame(got, want!, text);
    }),
    { numRuns: 3000, seed: 29 },
  );
  // both kinds occur, so the property is not vacuous
  assert.ok(read > 300 && left > 300, `read ${read}, left ${left}`);
});

test('rank JSON fast path: numbers are read as JSON.parse reads them, or left to it', () => {
  let read = 0;
  fc.assert(
    fc.property(numberText, (n) => {
      const got = fastRankJson(
        bytes(`{"arms":[{"id":"a","features":[${n}]}]}`),
        DEFAULT_LIMITS,
      ) as PackedRankRequest | null;
      let want: number;
      try {
        want = JSON.parse(n) as number;
      } catch {
        assert.equal(got, null, `not JSON, read anyway: ${n}`);
        return;
      }
      if (got === null) return;
      read++;
      assert.ok(Object.is(got[PACKED_FEATURES][0], want), `${n}: ${got[PACKED_FEATURES][0]} against ${want}`);
    }),
    { numRuns: 20000, seed: 29 },
  );
  assert.ok(read > 5000, `read ${read}`);
  // the forms each way
  const one = (n: string) => {
    const got = fastRankJson(
      bytes(`{"arms":[{"id":"a","features":[${n}]}]}`),
      DEFAULT_LIMITS,
    ) as PackedRankRequest | null;
    return got === null ? null : got[PACKED_FEATURES][0];
  };
  assert.ok(Object.is(one('-0'), -0));
  assert.ok(Object.is(one('-0.0'), -0));
  assert.equal(one('0.1'), 0.1);
  assert.equal(one('-123.456'), -123.456);
  assert.equal(one('9007199254740991'), 9007199254740991);
  assert.equal(one('0.0000000000000000000001'), 1e-22);
  for (const left of [
    '1e3',
    '1E3',
    '1.5e-7',
    '9007199254740993',
    '0.00000000000000000000001',
    '01',
    '1.',
    '.5',
    '-',
    '+1',
    'NaN',
    '0x10',
  ]) {
    assert.equal(one(left), null, left);
  }
});

test('rank JSON fast path: the schema limits and shapes it leaves to the usual path', () => {
  const limits: ServiceLimits = { ...DEFAULT_LIMITS, arms: 2, features: 2, batch: 2 };
  const one = (t: string) => fastRankJson(bytes(t), limits);
  const ok = '{"eventId":"e","arms":[{"id":"a","features":[1,2]},{"id":"b","features":[3,4]}]}';
  assert.notEqual(one(ok), null);
  for (const t of [
    '{"arms":[{"id":"a","features":[1,2]},{"id":"b","features":[3,4]},{"id":"c","features":[5,6]}]}', // 3 arms
    '{"arms":[{"id":"a","features":[1,2,3]}]}', // 3 features
    '{"arms":[]}',
    '{"arms":[{"id":"a","features":[]}]}',
    '{"arms":[{"id":"a","features":[1]},{"id":"b","features":[1,2]}]}', // unequal lengths
    '{"arms":[{"id":"","features":[1]}]}',
    '{"eventId":"","arms":[{"id":"a","features":[1]}]}',
    `{"eventId":"${'e'.repeat(129)}","arms":[{"id":"a","features":[1]}]}`,
    `{"unit":"${'u'.repeat(257)}","arms":[{"id":"a","features":[1]}]}`,
    '{"arms":[{"id":"a","features":[1]}],"arms":[{"id":"b","features":[1]}]}', // a key twice
    '{"arms":[{"id":"a","id":"b","features":[1]}]}',
    '{"arms":[{"id":"a","features":[1],"colour":"red"}]}',
    '{"withProbabilities":"true","arms":[{"id":"a","features":[1]}]}',
    '{"arms":[{"id":"a\\u0062","features":[1]}]}', // an escape
    '{"arms":[{"id":"caf\u00e9","features":[1]}]}', // not ASCII
    '\ufeff{"arms":[{"id":"a","features":[1]}]}', // a byte order mark
    '{"arms":[{"id":"a","features":[1]}]} x',
    '{"arms":[{"id":"a","features":[1]}],}',
    '{"arms":[{"id":"a","features":[1,]}]}',
    '{"events":[{"arms":[{"id":"a","features":[1]}]}]}', // a batch on the single route
    '',
  ]) {
    assert.equal(one(t), null, t);
  }
  const batch = (t: string) => fastRankBatchJson(bytes(t), limits);
  const b = batch(
    ' { "events" : [ {"arms":[{"id":"a","features":[1,2]}]}, {"eventId":"x","arms":[{"id":"a","features":[0.5]}]} ] } ',
  ) as { events: PackedRankRequest[] } | null;
  assert.notEqual(b, null);
  // each event its own dimension, its features a view of one copy
  assert.deepEqual([...b!.events[0]![PACKED_FEATURES]], [1, 2]);
  assert.deepEqual([...b!.events[1]![PACKED_FEATURES]], [0.5]);
  assert.equal(b!.events[0]![PACKED_FEATURES].buffer, b!.events[1]![PACKED_FEATURES].buffer);
  const e = '{"arms":[{"id":"a","features":[1]}]}';
  assert.equal(batch(`{"events":[${e},${e},${e}]}`), null, 'over the batch limit');
  assert.equal(batch('{"events":[]}'), null);
  assert.equal(batch(`{"events":[${e}],"more":1}`), null);
  assert.equal(batch(e), null, 'a single rank on the batch route');
  // and every batch it reads is one the batch schema takes
  assert.ok(Value.Check(rankBatchBody(limits), JSON.parse(`{"events":[${e},${e}]}`)));
});

/** The same request as `text` for the usual path: its first "arms" key written with an escape. */
const usual = (text: string): string => text.replace('"arms"', '"\\u0061rms"');

/** The count of rank JSON bodies read by `reader` in /metrics. */
async function bodiesRead(url: string, reader: 'fast' | 'parsed'): Promise<number> {
  const r = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
  const m = new RegExp(`adaprivate_rank_json_bodies_total\\{reader="${reader}"\\} (\\d+)`).exec(
    await r.text(),
  );
  return m === null ? 0 : Number(m[1]);
}

test("rank JSON fast path in the server: decisions store the values sent, every answer is the usual path's, errors included, and /metrics counts each reader", async () => {
  const s = await startTestServer();
  try {
    await s.client.createModel('m', {
      policy: 'adaprivate-ts',
      options: { dim: 2, horizon: 1000, epsilon: 1 },
    });
    // the values come back from the export bit-exact: a body the fast path reads (f1), the same with
    // an escaped key (u1) and one with a 17-digit number (p1), both left to JSON.parse
    const values = ['0.1', '-123456.789012', '-0.000001', '7'];
    const body = (id: string, v: string[]) =>
      `{"eventId":"${id}","arms":[{"id":"a","features":[${v[0]},${v[1]}]},{"id":"b","features":[${v[2]},${v[3]}]}]}`;
    const long = ['0.30000000000000004', ...values.slice(1)];
    for (const text of [body('f1', values), usual(body('u1', values)), body('p1', long)]) {
      assert.equal((await s.raw('POST', '/v1/models/m/rank', text)).status, 200, text);
    }
    assert.equal(await bodiesRead(s.url, 'fast'), 1);
    assert.equal(await bodiesRead(s.url, 'parsed'), 2);
    const lines: { eventId: string; arms: { features: number[] }[] }[] = [];
    for await (const l of s.client.iterateDecisions('m')) lines.push(l as unknown as (typeof lines)[number]);
    const parsed = (v: string[]) => v.map((x) => JSON.parse(x) as number);
    assert.deepEqual(
      lines.map((l) => [l.eventId, l.arms.flatMap((a) => a.features)]),
      [
        ['f1', parsed(values)],
        ['u1', parsed(values)],
        ['p1', parsed(long)],
      ],
    );

    // answers that do not depend on the draw: each body the fast path reads, and the same request
    // through the usual path, get the same status and body
    const same = async (path: string, text: string) => {
      const f0 = await bodiesRead(s.url, 'fast');
      const fast = await s.raw('POST', path, text);
      assert.equal(await bodiesRead(s.url, 'fast'), f0 + 1, `the fast path read ${text}`);
      const slow = await s.raw('POST', path, usual(text));
      assert.equal(slow.status, fast.status, text);
      assert.deepEqual(slow.body, fast.body, text);
      return fast;
    };
    const arms = (fs: string) => `[{"id":"a","features":${fs}},{"id":"b","features":${fs}}]`;
    assert.equal(
      (await same('/v1/models/m/rank', `{"arms":${arms('[1,2,3]')}}`)).body.code,
      'dimension_mismatch',
    );
    assert.equal(
      (await same('/v1/models/m/rank', '{"arms":[{"id":"a","features":[1,2]},{"id":"a","features":[3,4]}]}'))
        .body.code,
      'duplicate_arm_id',
    );
    assert.equal(
      (await same('/v1/models/m/rank', `{"eventId":"f1","arms":${arms('[1,2]')}}`)).body.code,
      'event_exists',
    );
    assert.equal(
      (await same('/v1/models/nope/rank', `{"arms":${arms('[1,2]')}}`)).body.code,
      'model_not_found',
    );
    const batch = await same(
      '/v1/models/m/rank/batch',
      `{"events":[{"eventId":"f1","arms":${arms('[1,2]')}},{"arms":${arms('[1]')}},{"arms":[{"id":"a","features":[1,2]},{"id":"a","features":[1,2]}]}]}`,
    );
    assert.deepEqual(
      batch.body.results.map((r: { ok: boolean; code: string }) => [r.ok, r.code]),
      [
        [false, 'event_exists'],
        [false, 'dimension_mismatch'],
        [false, 'duplicate_arm_id'],
      ],
    );
    // the schema's refusals are the usual path's own (the fast path leaves such bodies)
    const tooLong = await s.raw(
      'POST',
      '/v1/models/m/rank',
      `{"eventId":"${'e'.repeat(129)}","arms":${arms('[1,2]')}}`,
    );
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.code, 'invalid_request');
    assert.match(tooLong.body.message, /eventId/);
    // another route of the same plugins still parses its JSON as before
    const rewards = await s.raw(
      'POST',
      '/v1/models/m/rewards/batch',
      '{"rewards":[{"eventId":"f1","reward":1}]}',
    );
    assert.equal(rewards.status, 200);
    assert.equal(rewards.body.results[0].ok, true);
    assert.equal((await s.client.status('m')).decisions, 3, 'no refused body stored a decision');
  } finally {
    await s.close();
  }
});
