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
  rank(req: RankInput): Promise<RankResponse>;
  /** `unit`: the reward body's privacy unit (see `RewardRequest.unit`). */
  reward(eventId: string, reward: number, unit?: string): Promise<RewardResponse>;
  /**
   * The events of a rank batch, applied in the request's order, each as by {@link rank} (same
   * checks, same errors); resolves once every decision it stored is durable, with one outcome per
   * event.
   */
  rankMany(reqs: readonly RankInput[]): Promise<Outcome<RankResponse>[]>;
  /** The rewards of a batch, in order, each as by {@link reward}; one outcome per reward. */
  rewardMany(rewards: readonly RewardItem[]): Promise<Outcome<RewardResponse>[]>;
  /** Gives the default reward to decisions whose window has closed. */
  sweep(): Promise<void>;
  status(): Promise<ModelStatus>;
  ledger(): Promise<LedgerResponse>;
}

/** One reward of a batch. */
export interface RewardItem {
  readonly eventId: string;
  readonly reward: number;
  readonly unit?: string | undefined;
}

/** What one event of a batch came to: its answer, or the error its own request would have met. */
export type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown };

/** `fn` over `items`, each awaited before the next starts (for models whose calls may overlap). */
export async function eachInTurn<I, T>(
  items: readonly I[],
  fn: (item: I) => Promise<T>,
): Promise<Outcome<T>[]> {
  const out: Outcome<T>[] = [];
  for (const it of items) {
    try {
      out.push({ ok: true, value: await fn(it) });
    } catch (error) {
      out.push({ ok: false, error });
    }
  }
  return out;
}
