import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSecureSeed, deriveSeed } from '../../src/random/index.js';

describe('deriveSeed', () => {
  it('is deterministic, a safe integer, and differs across names and seeds', () => {
    assert.equal(deriveSeed(42, 'run-1'), deriveSeed(42, 'run-1'));
    assert.equal(deriveSeed(42, 'run-1'), 2041144529481285); // pinned: recorded seeds must stay valid
    const seen = new Set<number>();
    for (let seed = 0; seed < 50; seed++) {
      for (const name of ['', 'a', 'b', 'run-1']) {
        const s = deriveSeed(seed, name);
        assert.ok(Number.isSafeInteger(s) && s >= 0);
        seen.add(s);
      }
    }
    assert.equal(seen.size, 200);
  });

  it('refuses bad input', () => {
    assert.throws(() => deriveSeed(-3, 'x'), /deriveSeed: seed must be a non-negative safe integer/);
    assert.throws(() => deriveSeed(3, null as unknown as string), /deriveSeed: stream must be a string/);
  });
});

describe('createSecureSeed', () => {
  it('returns distinct non-negative safe integers below 2^53', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const s = createSecureSeed();
      assert.ok(Number.isSafeInteger(s) && s >= 0 && s < 2 ** 53);
      seen.add(s);
    }
    assert.ok(seen.size >= 19);
  });
});
