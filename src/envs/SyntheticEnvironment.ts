/**
 * The paper's synthetic environment (AdaPrivate-TS paper, synthetic study; SPEC section 5).
 *
 * - A fixed pool of n arms, features x_i ~ N(0, I_d) normalised to unit norm, drawn once per seed.
 * - theta* ~ N(0, I_d) normalised to norm `thetaNorm` (paper: 2).
 * - Each round, K of the n arms are drawn uniformly without replacement.
 * - Reward Bernoulli(mu(x^T theta*)): logistic link mu(z) = 1 / (1 + e^-z) (the paper's), or the
 *   linear link mu(z) = (1 + z / thetaNorm) / 2, affine in z and in [0, 1] since |z| <= thetaNorm.
 *
 * All randomness comes from `createRng(seed, 'env')`. Every round consumes the same number of draws
 * (K indices and one uniform u_t) whatever the policy does, and the realised reward of arm a is
 * 1{u_t < mu_a}: every policy run with the same seed faces exactly the same rounds and the same
 * reward noise (common random numbers). Cost per round: O(K d), allocation-free.
 */
import type { Rng } from '../random/index.js';
import { createRng } from '../random/index.js';
import type { Environment } from './Environment.js';

/** Options of {@link createSyntheticEnvironment}. */
export interface SyntheticEnvironmentOptions {
  /** Feature dimension d. Default 20; integer >= 1. */
  readonly dim?: number;
  /** Pool size n. Default 100; integer >= armsPerRound. */
  readonly arms?: number;
  /** Arms offered per round K. Default 5; integer in [1, arms]. */
  readonly armsPerRound?: number;
  /** ||theta*||_2. Default 2; finite and > 0. */
  readonly thetaNorm?: number;
  /** `'logistic'` (default, the paper's) or `'linear'`. */
  readonly link?: 'logistic' | 'linear';
}

/** Paper defaults of the synthetic environment. */
export const SYNTHETIC_DEFAULTS = Object.freeze({
  dim: 20,
  arms: 100,
  armsPerRound: 5,
  thetaNorm: 2,
  link: 'logistic' as 'logistic' | 'linear',
});

function checkInt(name: string, value: unknown, min: number, rule: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`SyntheticEnvironment: ${name} must be ${rule}. Got ${String(value)}.`);
  }
  return value;
}

/** Synthetic environment; build it with {@link createSyntheticEnvironment}. */
export class SyntheticEnvironment implements Environment {
  readonly name = 'synthetic';
  readonly dim: number;
  readonly armsPerRound: number;
  readonly horizon = Number.POSITIVE_INFINITY;
  /** Pool size n. */
  readonly arms: number;
  readonly thetaNorm: number;
  readonly link: 'logistic' | 'linear';
  readonly seed: number;
  /** theta*, length d (read-only by convention). */
  readonly theta: Float64Array;
  /** Pool features, n x d row-major, unit rows (read-only by convention). */
  readonly pool: Float64Array;
  /** Expected reward of every pool arm, length n (read-only by convention). */
  readonly poolMeans: Float64Array;
  private readonly rng: Rng;
  private readonly offered: Int32Array;
  private readonly scratch: Int32Array;
  private readonly offeredMeans: Float64Array;
  private u = 0;
  private started = false;

  constructor(options: SyntheticEnvironmentOptions, seed: number) {
    const o = { ...SYNTHETIC_DEFAULTS, ...options };
    this.dim = checkInt('dim', o.dim, 1, 'an integer >= 1');
    this.arms = checkInt('arms', o.arms, 1, 'an integer >= 1');
    this.armsPerRound = checkInt('armsPerRound', o.armsPerRound, 1, 'an integer >= 1');
    if (this.armsPerRound > this.arms) {
      throw new RangeError(
        `SyntheticEnvironment: armsPerRound must be at most arms (${this.arms}). Got ${this.armsPerRound}.`,
      );
    }
    if (typeof o.thetaNorm !== 'number' || !Number.isFinite(o.thetaNorm) || o.thetaNorm <= 0) {
      throw new RangeError(
        `SyntheticEnvironment: thetaNorm must be a finite number > 0. Got ${String(o.thetaNorm)}.`,
      );
    }
    this.thetaNorm = o.thetaNorm;
    if (o.link !== 'logistic' && o.link !== 'linear') {
      throw new RangeError(
        `SyntheticEnvironment: link must be 'logistic' or 'linear'. Got ${String(o.link)}.`,
      );
    }
    this.link = o.link;
    this.seed = seed;
    this.rng = createRng(seed, 'env');
    const d = this.dim;
    const n = this.arms;
    // pool first, then theta*: the pool does not depend on thetaNorm
    this.pool = new Float64Array(n * d);
    for (let i = 0; i < n; i++) {
      normaliseInto(this.rng, this.pool, i * d, d, 1);
    }
    this.theta = new Float64Array(d);
    normaliseInto(this.rng, this.theta, 0, d, this.thetaNorm);
    this.poolMeans = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let z = 0;
      for (let j = 0; j < d; j++) z += this.pool[i * d + j]! * this.theta[j]!;
      this.poolMeans[i] = this.mean(z);
    }
    this.offered = new Int32Array(this.armsPerRound);
    this.scratch = new Int32Array(n);
    this.offeredMeans = new Float64Array(this.armsPerRound);
  }

  /** The link applied to z = x^T theta*. */
  mean(z: number): number {
    return this.link === 'logistic' ? 1 / (1 + Math.exp(-z)) : 0.5 * (1 + z / this.thetaNorm);
  }

  nextRound(features: Float64Array, expected: Float64Array): void {
    const d = this.dim;
    const k = this.armsPerRound;
    this.rng.sampleWithoutReplacement(this.arms, k, this.offered, this.scratch);
    for (let a = 0; a < k; a++) {
      const i = this.offered[a]!;
      features.set(this.pool.subarray(i * d, (i + 1) * d), a * d);
      const m = this.poolMeans[i]!;
      expected[a] = m;
      this.offeredMeans[a] = m;
    }
    this.u = this.rng.uniform();
    this.started = true;
  }

  reward(arm: number): number {
    if (!this.started) throw new Error('SyntheticEnvironment: reward called before the first nextRound.');
    if (!Number.isInteger(arm) || arm < 0 || arm >= this.armsPerRound) {
      throw new RangeError(
        `SyntheticEnvironment: arm must be an integer in [0, ${this.armsPerRound}). Got ${arm}.`,
      );
    }
    return this.u < this.offeredMeans[arm]! ? 1 : 0;
  }

  /** Pool indices of the arms offered in the current round (a copy). */
  offeredArms(): number[] {
    return Array.from(this.offered);
  }

  describe(): Readonly<Record<string, unknown>> {
    return {
      name: this.name,
      dim: this.dim,
      arms: this.arms,
      armsPerRound: this.armsPerRound,
      thetaNorm: this.thetaNorm,
      link: this.link,
      seed: this.seed,
    };
  }
}

/** Fills out[off .. off+d) with N(0, I) scaled to norm `norm` (redraws the negligible all-zero case). */
function normaliseInto(rng: Rng, out: Float64Array, off: number, d: number, norm: number): void {
  let s = 0;
  do {
    rng.fillNormal(out, off, off + d);
    s = 0;
    for (let j = off; j < off + d; j++) s += out[j]! * out[j]!;
  } while (s === 0);
  const f = norm / Math.sqrt(s);
  for (let j = off; j < off + d; j++) out[j] = out[j]! * f;
}

/**
 * Creates the paper's synthetic environment for a seed.
 *
 * @param options - d, n, K, ||theta*||, link; paper defaults {@link SYNTHETIC_DEFAULTS}.
 * @param seed - non-negative safe integer; the environment uses stream `'env'` of it.
 * @example
 * const env = createSyntheticEnvironment({ dim: 20 }, 1);
 * const x = new Float64Array(env.armsPerRound * env.dim), mu = new Float64Array(env.armsPerRound);
 * env.nextRound(x, mu); // mu[0] is in (0, 1); every row of x has norm 1
 */
export function createSyntheticEnvironment(
  options: SyntheticEnvironmentOptions,
  seed: number,
): SyntheticEnvironment {
  return new SyntheticEnvironment(options, seed);
}
