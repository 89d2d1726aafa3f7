/**
 * The sizes of the synthetic user-level study (issue 25, study (a)): `'full'` is the paper-sized
 * study (12 seeds, T = 10,000, the paper's synthetic environment), `'quick'` a reduced run of about a
 * minute on a shared two-core machine, `'tiny'` a smoke-test size for the test suite.
 */
import type { SyntheticEnvConfig } from '../../types.js';

export type UserStudyScaleName = 'full' | 'quick' | 'tiny';

export interface UserStudyScale {
  readonly name: UserStudyScaleName;
  /** The environment without users; each study adds `arrivalsPerUnit` = k. */
  readonly env: SyntheticEnvConfig;
  /** Seeds 1..seeds. */
  readonly seeds: number;
  /** Rounds T. */
  readonly horizon: number;
  readonly checkpoints: number;
  /** User-level budget and delta. Paper: eps 5, delta 1e-5. */
  readonly userEpsilon: number;
  readonly delta: number;
  /** Arrivals per user k. Paper: {1, 5, 10}. */
  readonly ks: readonly number[];
  /** AdaPrivate-TS batch size B (its default 300). */
  readonly batchSize: number;
}

const PAPER_ENV: SyntheticEnvConfig = {
  kind: 'synthetic',
  dim: 20,
  arms: 100,
  armsPerRound: 5,
  thetaNorm: 2,
  link: 'logistic',
};

const SCALES: Readonly<Record<UserStudyScaleName, UserStudyScale>> = {
  full: {
    name: 'full',
    env: PAPER_ENV,
    seeds: 12,
    horizon: 10_000,
    checkpoints: 20,
    userEpsilon: 5,
    delta: 1e-5,
    ks: [1, 5, 10],
    batchSize: 300,
  },
  quick: {
    name: 'quick',
    env: PAPER_ENV,
    seeds: 4,
    horizon: 5_000,
    checkpoints: 10,
    userEpsilon: 5,
    delta: 1e-5,
    ks: [1, 5, 10],
    batchSize: 300,
  },
  tiny: {
    name: 'tiny',
    env: { ...PAPER_ENV, dim: 5, arms: 20 },
    seeds: 2,
    horizon: 400,
    checkpoints: 2,
    userEpsilon: 5,
    delta: 1e-5,
    ks: [1, 4],
    batchSize: 50,
  },
};

/**
 * @example
 * userStudyScale('full').horizon; // returns 10000
 */
export function userStudyScale(name: UserStudyScaleName): UserStudyScale {
  const s = SCALES[name];
  if (s === undefined) throw new RangeError(`userStudyScale: unknown scale ${JSON.stringify(name)}.`);
  return s;
}
