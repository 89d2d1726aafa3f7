/**
 * The sizes of the synthetic reproduction: `'full'` is the paper's study (SPEC section 5), `'quick'`
 * a reduced version that runs in under a minute on two cores (the README's first command), and
 * `'tiny'` a smoke-test size used by the test suite.
 */
import type { ParamValue, SyntheticEnvConfig } from '../types.js';

export type SyntheticScaleName = 'full' | 'quick' | 'tiny';

export interface SyntheticScale {
  readonly name: SyntheticScaleName;
  readonly env: SyntheticEnvConfig;
  /** Seeds 1..seeds. Paper: 12. */
  readonly seeds: number;
  /** Rounds T. Paper: 10,000. */
  readonly horizon: number;
  /** Checkpoints per run (curves). */
  readonly checkpoints: number;
  /** Budgets of the main table. Paper: {0.1, 0.5, 1, 2, 5, 10}. */
  readonly epsilons: readonly number[];
  readonly delta: number;
  /**
   * Tuning grid per policy, or `'spec'` for the SPEC section 4 grids (`policyInfo(id).tuningGrid`,
   * the cartesian product of every listed hyperparameter).
   */
  readonly tuningGrids: 'spec' | Readonly<Record<string, Readonly<Record<string, readonly ParamValue[]>>>>;
  /** Amplification sweep: rates q (q = 1 is the non-amplified release) and budgets. Paper: q in {0.1, 0.3, 0.5, 0.7}, eps 1 and 5. */
  readonly ampQ: readonly number[];
  readonly ampEpsilons: readonly number[];
  /** Robustness sweeps at `robustnessEpsilon` (paper: 1). */
  readonly robustnessEpsilon: number;
  readonly batchSizes: readonly number[];
  readonly vs: readonly number[];
  readonly decayV0: readonly number[];
  readonly decayGamma: readonly number[];
  /** Group privacy: user-level budget and group sizes k. Paper: eps 5, delta 1e-5, k in {1, 5, 10}. */
  readonly groupEpsilon: number;
  readonly groupK: readonly number[];
}

const PAPER_ENV: SyntheticEnvConfig = {
  kind: 'synthetic',
  dim: 20,
  arms: 100,
  armsPerRound: 5,
  thetaNorm: 2,
  link: 'logistic',
};

/** The paper's study: 12 seeds, T = 10,000, the SPEC tuning grids. */
const FULL: SyntheticScale = {
  name: 'full',
  env: PAPER_ENV,
  seeds: 12,
  horizon: 10_000,
  checkpoints: 20,
  epsilons: [0.1, 0.5, 1, 2, 5, 10],
  delta: 1e-5,
  tuningGrids: 'spec',
  ampQ: [0.1, 0.3, 0.5, 0.7, 1],
  ampEpsilons: [1, 5],
  robustnessEpsilon: 1,
  batchSizes: [100, 300, 500, 1000],
  vs: [0.5, 1, 1.5, 2],
  decayV0: [1, 1.5, 2],
  decayGamma: [0.9, 0.95, 0.99],
  groupEpsilon: 5,
  groupK: [1, 5, 10],
};

/**
 * Quick: the paper's environment and budgets with 3 seeds, T = 2,000, 10 checkpoints, and tuning
 * grids cut to two values of the main exploration parameter (alpha or v in {0.5, 1}; the decay's
 * v0 in {1, 1.5}) at the default batch size, q, cTrigger and gamma. The amplification, robustness
 * and group-privacy sweeps keep their full grids. B = 1000 leaves only 2 batches at T = 2,000.
 */
const QUICK: SyntheticScale = {
  ...FULL,
  name: 'quick',
  seeds: 3,
  horizon: 2000,
  checkpoints: 10,
  tuningGrids: {
    'adaprivate-ts': { v: [0.5, 1] },
    'adaprivate-ucb': { alpha: [0.5, 1] },
    'adaprivate-ts-amp': { v: [0.5, 1] },
    'adaprivate-ts-adaptive': { v0: [1, 1.5] },
    linucb: { alpha: [0.5, 1] },
    lints: { v: [0.5, 1] },
    'jdp-linucb': { alpha: [0.5, 1] },
    'zcdp-episodic': { alpha: [0.5, 1] },
    'adac-oful-zcdp': { alpha: [0.5, 1] },
    'rarely-switching-zcdp': { alpha: [0.5, 1] },
    'dgs-linucb': { alpha: [0.5, 1] },
  },
};

/** Tiny: a 5-dimensional, 20-arm environment, 2 seeds, 200 rounds, two budgets: a smoke test. */
const TINY: SyntheticScale = {
  ...FULL,
  name: 'tiny',
  env: { ...PAPER_ENV, dim: 5, arms: 20 },
  seeds: 2,
  horizon: 200,
  checkpoints: 4,
  epsilons: [1, 5],
  tuningGrids: {
    'adaprivate-ts': { v: [0.5, 1] },
    'adaprivate-ucb': { alpha: [0.5, 1] },
  },
  ampQ: [0.3, 1],
  ampEpsilons: [1],
  batchSizes: [50, 100],
  vs: [0.5, 1],
  decayV0: [1, 1.5],
  decayGamma: [0.95],
  groupK: [1, 5],
};

/**
 * The settings of a named scale.
 *
 * @example
 * syntheticScale('quick').horizon; // returns 2000
 */
export function syntheticScale(name: SyntheticScaleName): SyntheticScale {
  if (name === 'full') return FULL;
  if (name === 'quick') return QUICK;
  if (name === 'tiny') return TINY;
  throw new RangeError(
    `syntheticScale: scale must be 'full', 'quick' or 'tiny'. Got ${JSON.stringify(name)}.`,
  );
}
