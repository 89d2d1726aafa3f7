/**
 * What the routes need from one served model. Two implementations: {@link ModelRuntime} (one
 * server owns the database: SQLite) and {@link ReplicaRuntime} (several replicas share it:
 * PostgreSQL); {@link ModelRegistry} picks one by the store's capabilities.
 */

import type { ModelRow } from '../store/index.js';
import type { RankInput } from './binaryRank.js';
import type { LedgerResponse, ModelStatus, RankResponse, RewardResponse } from './contract.js';

export interface ServedModel {
  readonly row: ModelRow;
  /** True when the in-memory state may differ from the database: the registry reloads the model. */
  readonly stale: boolean;
  /**
   * True when calls made one after another in the same turn of the event loop take effect in that
   * order (ModelRuntime: one queue per model); false when they may overlap (ReplicaRuntime): a batch
   * then awaits each event before the next, so that its events apply in the request's order.
   */
  readonly queuesInOrder: boolean;
  rank(req: RankInput): Promise<RankResponse>;
  /** `unit`: the reward body's privacy unit (see `RewardRequest.unit`). */
  reward(eventId: string, reward: number, unit?: string): Promise<RewardResponse>;
  /** Gives the default reward to decisions whose window has closed. */
  sweep(): Promise<void>;
  status(): Promise<ModelStatus>;
  ledger(): Promise<LedgerResponse>;
}
