// The snapshot MAC primitive: RFC 4231 vectors on both paths (node:crypto and @noble/hashes), and
// the canonical JSON it is computed over.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson } from '../../src/policies/canonicalJson.js';
import { hmacSha256Hex, pureHmacSha256Hex } from '../../src/policies/hmacSha256.js';
import { createSnapshotKey } from '../../src/policies/index.js';
import { snapshotKeyBytes } from '../../src/policies/snapshotKey.js';

const enc = new TextEncoder();
const VECTORS: readonly [Uint8Array, string, string][] = [
  // RFC 4231 test cases 1, 2 and 6
  [
    new Uint8Array(20).fill(0x0b),
    'Hi There',
    'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  ],
  [
    enc.encode('Jefe'),
    'what do ya want for nothing?',
    '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  ],
  [
    new Uint8Array(131).fill(0xaa),
    'Test Using Larger Than Block-Size Key - Hash Key First',
    '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  ],
];

test('HMAC-SHA256 matches RFC 4231 on the Node and the pure-JavaScript path', () => {
  for (const [key, msg, want] of VECTORS) {
    assert.equal(hmacSha256Hex(key, msg), want);
    assert.equal(pureHmacSha256Hex(key, msg), want);
  }
  const key = new Uint8Array(32).fill(7);
  const msg = `snapshot é ✓ 𝔸 ${'x'.repeat(10_000)}`; // non-ASCII: UTF-8 on both paths
  assert.equal(pureHmacSha256Hex(key, msg), hmacSha256Hex(key, msg));
});

test('canonical JSON sorts keys at every depth and keeps an own __proto__ key', () => {
  assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }), '{"a":[{"c":3,"d":2}],"b":1}');
  assert.equal(canonicalJson(JSON.parse('{"z":1,"__proto__":{"y":2}}')), '{"__proto__":{"y":2},"z":1}');
  assert.equal(canonicalJson({ x: 1 }), canonicalJson(JSON.parse('{ "x" : 1 }')));
});

test('snapshot keys: length rules, a fresh random key, the per-process key', () => {
  assert.match(createSnapshotKey(), /^[0-9a-f]{64}$/);
  assert.notEqual(createSnapshotKey(), createSnapshotKey());
  assert.throws(
    () => snapshotKeyBytes('x'.repeat(31), "f: option 'key'"),
    /f: option 'key' must be a string of at least 32 characters.*Got a string of 31 characters/,
  );
  assert.throws(
    () => snapshotKeyBytes(new Uint8Array(16), "f: option 'key'"),
    /at least 32 bytes.*Got 16 bytes/,
  );
  assert.throws(() => snapshotKeyBytes(42, "f: option 'key'"), /Got number/);
  assert.equal(snapshotKeyBytes(undefined, 'f'), snapshotKeyBytes(undefined, 'f'));
  assert.equal(snapshotKeyBytes(undefined, 'f').length, 32);
});
