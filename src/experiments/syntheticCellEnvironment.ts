/**
 * The synthetic environment of a cell (no Node built-in: shared by the experiment registry and the
 * browser playground, so both draw the same rounds for the same seed).
 */
import type { Environment } from '../envs/Environment.js';
import { createSyntheticEnvironment } from '../envs/SyntheticEnvironment.js';
import type { EnvConfig } from './types.js';

/**
 * The full-information synthetic environment of `env` for `seed`.
 *
 * @example
 * syntheticCellEnvironment({ kind: 'synthetic', dim: 20, arms: 100, armsPerRound: 5, thetaNorm: 2, link: 'logistic' }, 1).dim; // returns 20
 */
export function syntheticCellEnvironment(env: EnvConfig & { kind: 'synthetic' }, seed: number): Environment {
  return createSyntheticEnvironment(
    {
      dim: env.dim,
      arms: env.arms,
      armsPerRound: env.armsPerRound,
      thetaNorm: env.thetaNorm,
      link: env.link,
    },
    seed,
  );
}
