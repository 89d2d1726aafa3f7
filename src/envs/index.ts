// Public API of the environments module.
export type { Environment } from './Environment.js';
export { EnvironmentReplayStream, replayFromEnvironment } from './EnvironmentReplayStream.js';
export type { ReplayStream } from './ReplayStream.js';
export type { SyntheticEnvironmentOptions } from './SyntheticEnvironment.js';
export {
  createSyntheticEnvironment,
  SYNTHETIC_DEFAULTS,
  SyntheticEnvironment,
} from './SyntheticEnvironment.js';
export type { SyntheticUsersOptions } from './SyntheticUsersEnvironment.js';
export { createSyntheticUsersEnvironment, SyntheticUsersEnvironment } from './SyntheticUsersEnvironment.js';
