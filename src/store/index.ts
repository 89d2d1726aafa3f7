/** Storage of the decision service: the engine-neutral interface, its rows, and the SQLite engine. */

export { isPostgresUrl } from './isPostgresUrl.js';
export { ModelDeletedError } from './ModelDeletedError.js';
export {
  type MigrationResult,
  migratePostgres,
  PostgresStore,
  type PostgresStoreOptions,
  RELEASE_CHANNEL,
  type ReleaseCommitInfo,
} from './PostgresStore.js';
export {
  type AdmitUnit,
  type ComputeDecision,
  type ComputeRelease,
  type ComputeUnitRelease,
  DELETED_VERSION,
  type DecisionStep,
  isReplicaStore,
  type PendingBatch,
  type PendingOutcome,
  type ReleasedState,
  type ReplicaStore,
  type SerialisedDecision,
  type StepInput,
  type StepOutcome,
  type StepsOutcome,
  type UnitDecision,
  type UnitGroup,
  type UnitPendingOutcome,
  type VersionedOutcome,
} from './ReplicaStore.js';
export { redactDbUrl } from './redactDbUrl.js';
export type {
  DecisionRow,
  LedgerRow,
  LoggedArm,
  LoggedInversePropensity,
  ModelRow,
  ModelSettings,
  NewModelRow,
  PendingReward,
  ReleaseInput,
  RewardState,
  TombstoneRow,
  UnitCountRow,
  UnitTotals,
  UnitWrite,
} from './rows.js';
export { SQLITE_SCHEMA_VERSION, SqliteStore, type SqliteStoreOptions } from './SqliteStore.js';
export type {
  DeleteModelOptions,
  DeleteModelResult,
  ExpireDecisionsOptions,
  ExportOptions,
  ModelCounts,
  ModelState,
  RecordRewardOutcome,
  RewardInput,
  RewardTarget,
  Store,
} from './Store.js';
export { StoreConflictError } from './StoreConflictError.js';
export {
  MIGRATIONS,
  type Migration,
  migrationStatements,
  SCHEMA_VERSION,
  type SqlDialect,
  schemaVersionOf,
} from './schema.js';
