// The snapshot MAC is computed over canonicalJson: its text must stay exactly that of JSON.stringify
// with the key-sorting replacer it replaced (else every stored snapshot would stop verifying).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { canonicalJson } from '../../src/policies/canonicalJson.js';
import { createPolicy } from '../../src/policies/index.js';

/** The definition: JSON.stringify with a replacer that rebuilds each object with sorted keys. */
function reference(value: unknown): string {
  return (
    JSON.stringify(value, (_k, v: unknown) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
      const out = Object.create(null) as Record<string, unknown>;
      for (const k of Object.keys(v).sort()) out[k] = (v as Record<string, unknown>)[k];
      return out;
    }) ?? ''
  );
}

test('random data: the same text as JSON.stringify with the sorting replacer', () => {
  const key = fc.oneof(fc.string(), fc.constantFrom('0', '1', '10', '2', '__proto__', 'a', 'B', '-1', '01'));
  const leaf = fc.oneof(
    fc.double(), // NaN and +-Infinity included: null in the text
    fc.integer(),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(-0),
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 5 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  }));
  fc.assert(
    fc.property(value, (v) => {
      assert.equal(canonicalJson(v), reference(v));
    }),
    { numRuns: 2000 },
  );
});

test('toJSON, functions, symbols, typed arrays, Dates and an own __proto__ key as the replacer had them', () => {
  const cases: unknown[] = [
    { b: { toJSON: (k: string) => ({ z: k, a: 1 }) }, a: [() => 1, Symbol('s'), undefined] },
    { f: () => 1, s: Symbol('t'), u: undefined, n: Number.NaN, i: -Infinity },
    { t: Float64Array.of(3, 1), d: new Date(0), m: new Map([[1, 2]]) },
    JSON.parse('{"z":1,"__proto__":{"y":2},"10":0,"9":0,"a":[{"2":1,"1":2}]}'),
    [],
    {},
    'text',
    undefined,
  ];
  for (const c of cases) assert.equal(canonicalJson(c), reference(c));
});

test('policy snapshots: the same text as the replacer (the MAC input)', () => {
  for (const id of ['adaprivate-ts', 'jdp-linucb', 'dgs-linucb'] as const) {
    const p = createPolicy(id, { dim: 4, horizon: 1000, seed: 2, epsilon: 1, noiseSeed: 3 });
    const x = Float64Array.of(0.1, 0.2, 0.3, 0.4, 0.4, 0.3, 0.2, 0.1);
    for (let i = 0; i < 40; i++) {
      p.select(x, 2);
      p.update(i % 3 === 0 ? 1 : 0);
    }
    const { mac: _mac, ...content } = p.snapshot();
    assert.equal(canonicalJson(content), reference(content));
  }
});
