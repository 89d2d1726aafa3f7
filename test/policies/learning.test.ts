// Learning: on a noiseless linear environment (rewards = x^T theta* in [0, 1], built here) regret
// grows sublinearly, and private policies approach the non-private ones as epsilon grows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type PolicyId, policyIds, policyInfo } from '../../src/policies/index.js';
import { createPaperPolicy as createPolicy, makeStream, regretCurve } from './helpers.js';

const T = 4000;
const streams = [1, 2, 3].map((s) => makeStream(100 + s, T, 5, 5));

/** Mean over the 3 streams of the regret curve's values at T/2 and T. */
function regret(id: PolicyId, extra: Record<string, unknown>): { half: number; full: number } {
  let half = 0;
  let full = 0;
  streams.forEach((s, i) => {
    const p = createPolicy(id, { dim: 5, horizon: T, seed: 40 + i, ...extra } as never);
    const c = regretCurve(p, s, T);
    half += c[T / 2 - 1]! / streams.length;
    full += c[T - 1]! / streams.length;
  });
  return { half, full };
}

describe('sublinear regret on a noiseless linear environment', () => {
  for (const id of policyIds) {
    const extra = policyInfo(id).isPrivate
      ? { epsilon: 1e4, ...(id.startsWith('adaprivate') ? { batchSize: 50 } : {}) }
      : {};
    test(`${id}${policyInfo(id).isPrivate ? ' (eps = 1e4)' : ''}: second-half regret < 0.6 x first-half regret`, () => {
      const r = regret(id, extra);
      const second = r.full - r.half;
      assert.ok(
        second < 0.6 * r.half,
        `regret first half ${r.half.toFixed(2)}, second half ${second.toFixed(2)}`,
      );
    });
  }
});

describe('the seeded noise stream (float Gaussian, not the secure grid) learns too', () => {
  // noiseSeed switches the releases from the discrete Gaussian on a grid to seeded float noise: a
  // separate code path in several policies (JDP's tree nodes, DGS, Amp), checked here on its own.
  for (const id of policyIds.filter((p) => policyInfo(p).isPrivate)) {
    test(`${id} (eps = 1e4, noiseSeed): second-half regret < 0.6 x first-half regret`, () => {
      const r = regret(id, {
        epsilon: 1e4,
        noiseSeed: 7,
        ...(id.startsWith('adaprivate') ? { batchSize: 50 } : {}),
      });
      const second = r.full - r.half;
      assert.ok(
        second < 0.6 * r.half,
        `regret first half ${r.half.toFixed(2)}, second half ${second.toFixed(2)}`,
      );
    });
  }
});

describe('private policies approach the non-private ones as epsilon grows', () => {
  const pairs: [PolicyId, PolicyId][] = [
    ['adaprivate-ts', 'lints'],
    ['adaprivate-ucb', 'linucb'],
  ];
  for (const [priv, ref] of pairs) {
    test(`${priv} -> ${ref}`, () => {
      const base = regret(ref, {}).full;
      const at = (epsilon: number) => regret(priv, { epsilon, batchSize: 10 }).full;
      const low = at(0.1);
      const high = at(1e4);
      assert.ok(
        high < low,
        `regret at eps=1e4 (${high.toFixed(1)}) should be below eps=0.1 (${low.toFixed(1)})`,
      );
      assert.ok(
        high < 1.5 * base + 5,
        `regret at eps=1e4 ${high.toFixed(1)} vs non-private ${base.toFixed(1)}`,
      );
      assert.ok(
        low > 1.5 * base,
        `eps=0.1 should be visibly worse than non-private (${low.toFixed(1)} vs ${base.toFixed(1)})`,
      );
    });
  }
});
