// Every policy must make the same decisions, scores, probabilities and snapshot with the
// WebAssembly kernels (src/linalg/kernels.wat, src/random/xoshiroPolar.wat) as with the JavaScript
// kernels: each policy runs twice on one seeded stream, kernels on and off, and everything it
// outputs is compared exactly (d = 7, 300 rounds; bench/seededHashes.ts does the long version).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setLinalgKernel } from '../../src/linalg/index.js';
import { createPolicy, type PolicyId, policyIds, policyInfo } from '../../src/policies/index.js';
import { createRng } from '../../src/random/index.js';
import { setPolarKernel } from '../../src/random/xoshiroPolarKernel.js';

const d = 7;
const K = 5;
const ROUNDS = 300;

/** Runs `fn` with both WebAssembly kernels on or off, then restores what was set. */
function withKernels(kernels: boolean, fn: () => string): string {
  const wasLinalg = setLinalgKernel(kernels);
  const wasPolar = setPolarKernel(kernels);
  try {
    return fn();
  } finally {
    setLinalgKernel(wasLinalg);
    setPolarKernel(wasPolar);
  }
}

function run(id: PolicyId, kernels: boolean): string {
  return withKernels(kernels, () => {
    const rng = createRng(3, 'wasm-policies');
    const n = 61;
    const features = new Float64Array(n * K * d);
    rng.fillNormal(features);
    for (let i = 0; i < features.length; i++) features[i] = features[i]! / Math.sqrt(d);
    const rewards = Float64Array.from({ length: n * K }, () => rng.uniform());
    const options = {
      dim: d,
      horizon: ROUNDS,
      seed: 1,
      ...(policyInfo(id).isPrivate ? { epsilon: 1, noiseSeed: 1 } : {}),
    };
    const policy = createPolicy(id, options as never);
    const out: unknown[] = [];
    for (let t = 0; t < ROUNDS; t++) {
      const r = t % n;
      const view = features.subarray(r * K * d, (r + 1) * K * d);
      if (t % 30 === 0) {
        out.push(Array.from(policy.scores(view, K)));
        out.push(Array.from(policy.probabilities(view, K, { samples: 32 }).probabilities));
      }
      const a = policy.select(view, K);
      out.push(a);
      policy.update(rewards[r * K + a]!);
    }
    // the snapshot's state (lineage and instance ids are random per policy, and the MAC covers them)
    const {
      lineage: _l,
      instance: _i,
      mac: _m,
      ...snapshot
    } = JSON.parse(policy.save()) as Record<string, unknown>;
    out.push(snapshot);
    return JSON.stringify(out);
  });
}

describe('policies with and without the WebAssembly kernels', () => {
  for (const id of policyIds) {
    it(`${id}: identical decisions, scores, probabilities and snapshot`, () => {
      assert.equal(run(id, true), run(id, false));
    });
  }
});

/** AdaPrivate-TS's one-call choice (RidgeFactor.tsChoose): k from 1 to 6 (odd and even, growing), tied arms. */
function runVaryingK(kernels: boolean): string {
  return withKernels(kernels, () => {
    const rng = createRng(5, 'wasm-choose');
    const policy = createPolicy('adaprivate-ts', { dim: d, horizon: 400, seed: 2, epsilon: 1, noiseSeed: 2 });
    const out: number[] = [];
    for (let t = 0; t < 400; t++) {
      const k = 1 + ((t * 7) % 6);
      const view = new Float64Array(k * d);
      rng.fillNormal(view);
      // every fifth round: the last arm repeats the first (equal scores: the first one wins)
      if (t % 5 === 0 && k > 1) view.copyWithin((k - 1) * d, 0, d);
      const a = policy.select(view, k);
      out.push(a);
      policy.update(rng.uniform());
    }
    return JSON.stringify(out);
  });
}

describe('adaprivate-ts: the choice in one kernel call', () => {
  it('the same arms as the JavaScript kernels for k = 1..6, with tied arms', () => {
    assert.equal(runVaryingK(true), runVaryingK(false));
  });
});

/**
 * AdaPrivate-TS's Monte Carlo draws (prepareDraws: W = L^{-1} X by the kernels' forward solve):
 * geometric resampling and arm probabilities for k = 1..10 around d = 7 (both draw paths, k < d
 * and k >= d), with tied arms.
 */
function runPropensities(kernels: boolean): string {
  return withKernels(kernels, () => {
    const rng = createRng(6, 'wasm-draws');
    const policy = createPolicy('adaprivate-ts', {
      dim: d,
      horizon: 300,
      seed: 3,
      epsilon: 1,
      noiseSeed: 3,
    });
    const out: number[] = [];
    for (let t = 0; t < 300; t++) {
      const k = 1 + ((t * 3) % 10);
      const view = new Float64Array(k * d);
      rng.fillNormal(view);
      if (t % 4 === 0 && k > 2) view.copyWithin((k - 1) * d, d, 2 * d);
      if (t % 10 === 0) out.push(...policy.probabilities(view, k, { samples: 16 }).probabilities);
      const r = policy.selectWithInversePropensity(view, k, { resamplingCap: 40 });
      out.push(r.arm, r.inversePropensity.value);
      policy.update(rng.uniform());
    }
    return JSON.stringify(out);
  });
}

describe('adaprivate-ts: Monte Carlo draws in the kernels', () => {
  it('the same inverse propensities and probabilities as the JavaScript kernels for k = 1..10', () => {
    const on = runPropensities(true);
    assert.equal(on, runPropensities(false));
    // the draws are random (not all 1): the test compares something
    assert.ok((JSON.parse(on) as number[]).some((v) => v > 1 && Number.isInteger(v)));
  });
});

/** The candidates clipped in the kernels' memory (RidgeFactor.clipRows) against copyClip: long, overflowing and bad rows. */
function runClipping(id: PolicyId, kernels: boolean): string {
  return withKernels(kernels, () => {
    const rng = createRng(6, 'wasm-clip');
    const options = {
      dim: d,
      horizon: 200,
      seed: 4,
      ...(policyInfo(id).isPrivate ? { epsilon: 1, noiseSeed: 4 } : {}),
    };
    const policy = createPolicy(id, options as never);
    const out: unknown[] = [];
    for (let t = 0; t < 200; t++) {
      const view = new Float64Array(K * d);
      rng.fillNormal(view);
      for (let i = 0; i < d; i++) view[i] = view[i]! * 3; // arm 0: norm about 3 sqrt(d), clipped
      if (t % 7 === 0) view[d + 2] = 1e200; // arm 1: the squares overflow
      if (t % 11 === 0) view[2 * d] = 1e-310; // arm 2: a subnormal entry
      if (t % 13 === 0) {
        for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
          const copy = view.slice();
          copy[3 * d + 1] = bad;
          try {
            policy.select(copy, K);
            out.push('no error');
          } catch (e) {
            out.push((e as Error).message);
          }
        }
      }
      if (t % 17 === 0) out.push(Array.from(policy.scores(view, K)));
      const a = policy.select(view, K);
      out.push(a);
      policy.update(rng.uniform());
    }
    out.push(policy.clippedCount);
    return JSON.stringify(out);
  });
}

describe('candidates clipped by the kernels', () => {
  for (const id of ['adaprivate-ts', 'adaprivate-ucb', 'lints'] as PolicyId[]) {
    it(`${id}: the same arms, scores, errors and clippedCount as copyClip`, () => {
      assert.equal(runClipping(id, true), runClipping(id, false));
    });
  }
});
