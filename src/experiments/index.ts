// Public API of the experiments module: configs, the parallel runner, statistics and writers.

export { CellPool, cellCost } from './CellPool.js';
export { canonicalJson } from './canonicalJson.js';
export type { CachedCell } from './cellCache.js';
export { cachePath, readCachedCell, writeCachedCell } from './cellCache.js';
export { cellKey } from './cellKey.js';
export { ExperimentConfigError } from './ExperimentConfigError.js';
export { createEnvironment, createReplay } from './environmentRegistry.js';
export type { ReplayEvaluation } from './evaluateReplay.js';
export { evaluateReplay } from './evaluateReplay.js';
export { expandGrid, paramCombinations } from './expandGrid.js';
export { loadExperimentConfig } from './loadExperimentConfig.js';
export type { BySeed } from './pairedTTest.js';
export { pairedTTest } from './pairedTTest.js';
export type { PercentOf } from './percentOf.js';
export { percentOf } from './percentOf.js';
export { runCell } from './runCell.js';
export { runExperiment } from './runExperiment.js';
export { cellPolicySpec, NO_PRIOR } from './runFullInformation.js';
export { seedStats } from './seedStats.js';
export { settingId } from './settingId.js';
export { checkpointReward, summarise } from './summarise.js';
export { tune } from './tune.js';
export type {
  CellConfig,
  CellResult,
  CellTiming,
  Checkpoint,
  CurvePoint,
  EnvConfig,
  ExperimentConfig,
  ExperimentResult,
  Link,
  PairedTTest,
  ParamValue,
  PolicyGridEntry,
  PolicyParams,
  Protocol,
  RatingsEnvConfig,
  RunOptions,
  RunProgress,
  SeedStats,
  SettingSummary,
  SyntheticEnvConfig,
  TuningResult,
} from './types.js';
export { validateExperimentConfig } from './validateExperimentConfig.js';
export { writeAtomic } from './writeAtomic.js';
export { cellsCsv, checkpointsCsv, writeResultsCsv } from './writeResultsCsv.js';
export { resultsToJson, writeResultsJson } from './writeResultsJson.js';
