/**
 * Entry point of the experiment runner alone (`adaprivate/runner`, `adaprivate-core/runner`): the
 * grid runner, one cell, the replay evaluator and the environment registry, without statistics,
 * report writers or charts (so without their dependencies). Worker threads load the optional
 * package tinypool on demand; `runExperiment(config, { inProcess: true })` needs nothing.
 */

export { CellPool, cellCost } from './CellPool.js';
export { createEnvironment, createReplay } from './environmentRegistry.js';
export type { ReplayEvaluation } from './evaluateReplay.js';
export { evaluateReplay } from './evaluateReplay.js';
export { expandGrid } from './expandGrid.js';
export { runCell } from './runCell.js';
export { runExperiment } from './runExperiment.js';
export type {
  CellConfig,
  CellResult,
  Checkpoint,
  EnvConfig,
  ExperimentConfig,
  ExperimentResult,
  Link,
  PolicyGridEntry,
  PolicyParams,
  Protocol,
  RatingsEnvConfig,
  RunOptions,
  RunProgress,
  SyntheticEnvConfig,
} from './types.js';
export { validateExperimentConfig } from './validateExperimentConfig.js';
