/**
 * The synthetic environment of a cell (no Node built-in: shared by the experiment registry and the
 * browser playground, so both draw the same rounds for the same seed).
 */
import type { Environment } from '../envs/Environment.js';
import { createSyntheticEnvironment } from '../envs/SyntheticEnvironment.js';
import { createSyntheticUsersEnvironment } from '../envs/SyntheticUsersEnvironment.js';
import type { EnvConfig } from './types.js';

/**
 * The full-information synthetic environment of `env` for `seed` (`horizon`: the rounds to serve,
 * required with users, `env.arrivalsPerUnit`).
 *
 * @example
 * syntheticCellEnvironment({ kind: 'synthetic', dim: 20, arms: 100, armsPerRound: 5, thetaNorm: 2, link: 'logistic' }, 1).dim; // returns 20
 */
export function syntheticCellEnvironment(
  env: EnvConfig & { kind: 'synthetic' },
  seed: number,
  horizon?: number,
): Environment {
  const options = {
    dim: env.dim,
    arms: env.arms,
    armsPerRound: env.armsPerRound,
    thetaNorm: env.thetaNorm,
    link: env.link,
  };
  if (env.arrivalsPerUnit === undefined) return createSyntheticEnvironment(options, seed);
  // users (the user-level study): every user's arrivals are laid out over the run's horizon
  if (horizon === undefined)
    throw new RangeError(
      'createEnvironment: a synthetic environment with users (arrivalsPerUnit) needs the horizon.',
    );
  return createSyntheticUsersEnvironment({ ...options, arrivalsPerUnit: env.arrivalsPerUnit, horizon }, seed);
}
