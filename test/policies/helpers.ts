// Shared test helpers: a small noiseless linear environment built inside the tests, default options.
import {
  createPolicy,
  type Policy,
  type PolicyId,
  type PolicyOptions,
  type PolicyOptionsFor,
  type PolicyRuntime,
  policyInfo,
  withStoredAccountant,
} from '../../src/policies/index.js';
import { createRng } from '../../src/random/index.js';

/** A pre-generated stream: T rounds of K unit-norm non-negative arms; mean reward x^T theta* in [0, 1]. */
export interface Stream {
  readonly d: number;
  readonly k: number;
  readonly rounds: number;
  readonly features: Float64Array;
  readonly means: Float64Array;
}

/** Features |N(0, I)| normalised to unit norm, theta* = |N(0, I)| normalised: x^T theta* in [0, 1]. */
export function makeStream(seed: number, rounds: number, k: number, d: number): Stream {
  const rng = createRng(seed, 'test-env');
  const theta = new Float64Array(d);
  let n = 0;
  for (let i = 0; i < d; i++) {
    theta[i] = Math.abs(rng.normal());
    n += theta[i]! ** 2;
  }
  for (let i = 0; i < d; i++) theta[i] = theta[i]! / Math.sqrt(n);
  const features = new Float64Array(rounds * k * d);
  const means = new Float64Array(rounds * k);
  for (let t = 0; t < rounds; t++) {
    for (let a = 0; a < k; a++) {
      const o = (t * k + a) * d;
      let s = 0;
      for (let i = 0; i < d; i++) {
        const v = Math.abs(rng.normal());
        features[o + i] = v;
        s += v * v;
      }
      s = Math.sqrt(s);
      let m = 0;
      for (let i = 0; i < d; i++) {
        features[o + i] = features[o + i]! / s;
        m += features[o + i]! * theta[i]!;
      }
      means[t * k + a] = Math.min(1, Math.max(0, m));
    }
  }
  return { d, k, rounds, features, means };
}

/** The features of round t as a view (test code: allocation is fine here). */
export function roundFeatures(s: Stream, t: number): Float64Array {
  const n = s.k * s.d;
  const o = (t % s.rounds) * n;
  return s.features.subarray(o, o + n);
}

/**
 * Options for `id` with a budget when private, in research mode (seeded noise, `noiseSeed` = `seed`
 * unless `extra` says otherwise), so that runs are reproducible; `noiseSeed: undefined` in `extra`
 * gives the default secure noise.
 */
export function optionsFor(id: PolicyId, extra: Partial<Record<string, unknown>> = {}): PolicyOptions {
  const base: Record<string, unknown> = { dim: 4, horizon: 2000, seed: 7 };
  if (policyInfo(id).isPrivate) {
    base.epsilon = 1;
    base.noiseSeed = typeof extra.seed === 'number' ? extra.seed : 7;
  }
  if (id.startsWith('adaprivate')) base.batchSize = 25;
  if (id === 'adaprivate-ts-amp') base.orders = 'paper'; // integer orders: exact and fast accounting
  return { ...base, ...extra } as unknown as PolicyOptions;
}

export function make(id: PolicyId, extra: Partial<Record<string, unknown>> = {}): Policy {
  return createPolicy(id, optionsFor(id, extra));
}

/** Runs `rounds` rounds from round `start` of the stream with noiseless rewards; returns the actions. */
export function play(p: Policy, s: Stream, start: number, rounds: number): number[] {
  const out: number[] = [];
  for (let t = start; t < start + rounds; t++) {
    const a = p.select(roundFeatures(s, t), s.k);
    out.push(a);
    p.update(s.means[(t % s.rounds) * s.k + a]!);
  }
  return out;
}

/** Cumulative regret against the best offered arm, at every round. */
export function regretCurve(p: Policy, s: Stream, rounds: number): Float64Array {
  const curve = new Float64Array(rounds);
  let r = 0;
  for (let t = 0; t < rounds; t++) {
    const a = p.select(roundFeatures(s, t), s.k);
    const row = (t % s.rounds) * s.k;
    let best = 0;
    for (let j = 0; j < s.k; j++) best = Math.max(best, s.means[row + j]!);
    r += best - s.means[row + a]!;
    p.update(s.means[row + a]!);
    curve[t] = r;
  }
  return curve;
}

/**
 * `createPolicy` with the paper's accountant ('zcdp', Amp's 'rdp') unless the options name one: for
 * the tests of the paper's calibration (sigma = 1/sqrt(2 rho), the ledger's zCDP/RDP figures).
 */
export function createPaperPolicy<I extends PolicyId>(
  id: I,
  options: PolicyOptionsFor<I>,
  runtime?: PolicyRuntime,
): Policy<I> {
  return createPolicy(id, withStoredAccountant(id, options) as never, runtime) as Policy<I>;
}
