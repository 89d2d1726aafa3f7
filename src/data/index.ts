// Public API of the data module: loaders, features and real-data environments.
import type { Environment } from '../envs/Environment.js';
import type { ReplayStream } from '../envs/ReplayStream.js';
import type { RatingsEnvOptions } from './RatingsEnvOptions.js';

export type { RatingsEnvOptions } from './RatingsEnvOptions.js';

/** Full-information environment on prepared real data (not yet implemented). */
export function createRatingsEnvironment(_options: RatingsEnvOptions, _seed: number): Environment {
  throw new Error('createRatingsEnvironment: not implemented yet (issue 6 in progress).');
}

/** Li et al. replay stream on prepared real data (not yet implemented). */
export function createReplayStream(_options: RatingsEnvOptions, _seed: number): ReplayStream {
  throw new Error('createReplayStream: not implemented yet (issue 6 in progress).');
}
