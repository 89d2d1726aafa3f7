// Secret noise by default: the privacy noise comes from the secure source unless the caller passes
// noiseSeed (research mode); the exploration seed never determines the noise.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPolicy, type Policy, type PolicyOptions } from '../../src/policies/index.js';
import { makeStream, play } from './helpers.js';

const stream = makeStream(5, 200, 5, 4);

function opts(extra: Record<string, unknown>): PolicyOptions {
  return { dim: 4, horizon: 200, seed: 1, epsilon: 1, batchSize: 20, ...extra } as unknown as PolicyOptions;
}

/** The released statistic b of a batched policy (base64 of its bytes). */
function released(p: Policy): string {
  return (p.snapshot().state as { own: { b: string } }).own.b;
}

describe('privacy noise: secure by default, seeded only with noiseSeed', () => {
  test('without noiseSeed two policies with the same seed and data release different noise', () => {
    const a = createPolicy('adaprivate-ucb', opts({}));
    const b = createPolicy('adaprivate-ucb', opts({}));
    play(a, stream, 0, 20); // exactly one release, same public inputs and rewards
    play(b, stream, 0, 20);
    assert.notEqual(released(a), released(b));
    assert.equal(a.privacy().noise, 'secure');
    assert.equal(a.privacy().releases, 1);
  });

  test('with noiseSeed the noise is reproducible and privacy() says seeded', () => {
    const a = createPolicy('adaprivate-ucb', opts({ noiseSeed: 3 }));
    const b = createPolicy('adaprivate-ucb', opts({ noiseSeed: 3 }));
    play(a, stream, 0, 60);
    play(b, stream, 0, 60);
    assert.equal(released(a), released(b));
    assert.equal(a.privacy().noise, 'seeded');
    const c = createPolicy('adaprivate-ucb', opts({ noiseSeed: 4 }));
    play(c, stream, 0, 60);
    assert.notEqual(released(c), released(a));
  });

  test('the exploration seed never determines the noise', () => {
    // UCB is deterministic given its noise: with the same noiseSeed, any seed gives the same state
    for (const id of [
      'adaprivate-ucb',
      'dgs-linucb',
      'zcdp-episodic',
      'adac-oful-zcdp',
      'jdp-linucb',
    ] as const) {
      const batch = id === 'adaprivate-ucb' ? { batchSize: 20 } : {};
      const o = { dim: 4, horizon: 200, epsilon: 1, noiseSeed: 9, ...batch };
      const a = createPolicy(id, { ...o, seed: 1 });
      const b = createPolicy(id, { ...o, seed: 2 });
      assert.deepEqual(play(a, stream, 0, 100), play(b, stream, 0, 100), id);
      assert.deepEqual(
        (a.snapshot().state as { own: unknown }).own,
        (b.snapshot().state as { own: unknown }).own,
        id,
      );
    }
  });

  test('noiseSeed is validated, and refused by non-private policies (they add no noise)', () => {
    assert.throws(
      () => createPolicy('adaprivate-ts', opts({ noiseSeed: -1 })),
      /AdaPrivate-TS: noiseSeed must be a non-negative safe integer\. Got -1\./,
    );
    assert.throws(
      () => createPolicy('lints', { dim: 4, horizon: 10, seed: 1, noiseSeed: 1 } as PolicyOptions),
      /unknown option 'noiseSeed' for policy 'lints'/,
    );
    assert.equal(createPolicy('lints', { dim: 4, horizon: 10, seed: 1 }).privacy().noise, 'none');
  });

  test('a snapshot of a secure policy carries no noise state', () => {
    const a = createPolicy('adaprivate-ts', opts({}));
    play(a, stream, 0, 30);
    const base = (a.snapshot().state as { base: { noiseRng: unknown } }).base;
    assert.equal(base.noiseRng, null);
    const s = createPolicy('adaprivate-ts', opts({ noiseSeed: 1 }));
    assert.notEqual((s.snapshot().state as { base: { noiseRng: unknown } }).base.noiseRng, null);
  });
});
