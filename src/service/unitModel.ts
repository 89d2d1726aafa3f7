/**
 * The privacy unit of a served model: which user-level options the service accepts, the store-backed
 * unit counts and clock of a user-level model ({@link ModelRuntime}), and the unit of a reward.
 */
import type { PolicyConfig, PolicyId, PolicyRuntime } from '../policies/index.js';
import { resolveConfig, unitSettings } from '../policies/index.js';
import { epochIndex } from '../privacy/index.js';
import type { ModelRow, Store } from '../store/index.js';
import { ServiceError } from './ServiceError.js';
import { StoreUnitCounters } from './StoreUnitCounters.js';

/** What a {@link ModelRuntime} keeps for a user-level model. */
export interface UnitModel {
  readonly counters: StoreUnitCounters;
  /** The time (ms since 1970) the policy's clock reads: set by the runtime before each reward. */
  readonly clock: { now: number };
  readonly runtime: PolicyRuntime;
  /** A time in the epoch of the rewards pending at load (their replay reads it). */
  readonly openEpochTime: number;
  /** The epoch at time `ms` (epochDays; 0 for the other kinds, whose epoch the policy counts). */
  epochAt(ms: number): number;
  /** Units are Poisson-sampled into each release (q < 1): their draws are stored with their counts. */
  readonly sampled: boolean;
}

const DAY_MS = 86_400_000;

/**
 * Refuses the user-level configurations the service cannot serve, with the reason. One server
 * (SQLite) serves every user-level configuration of the policies, including `epochRounds` (a round
 * is a reward offered to the model, kept or dropped, given or default: docs/serving.md) and units
 * sampled at q < 1 (each unit's draw is stored with its count in the reward's transaction and reused
 * by the replay after a restart). Replicas sharing PostgreSQL refuse them.
 */
export function checkServedUnitOptions(config: PolicyConfig, replicas: boolean): void {
  if (!('privacyUnit' in config) || config.privacyUnit !== 'user') return;
  if (!replicas) return;
  if (config.epochRounds !== undefined) {
    throw new ServiceError(
      400,
      'invalid_options',
      "options.epochRounds with privacyUnit 'user' is not served by replicas sharing PostgreSQL: use epochDays (or neither, for one lifetime epoch), or serve the model from one server (SQLite).",
    );
  }
  if ('q' in config && typeof config.q === 'number' && config.q < 1) {
    throw new ServiceError(
      400,
      'invalid_options',
      `options.q = ${config.q} with privacyUnit 'user' is not served by replicas sharing PostgreSQL: use q = 1 (or adaprivate-ts), or serve the model from one server (SQLite).`,
    );
  }
  if (replicas) {
    throw new ServiceError(
      400,
      'invalid_options',
      "privacyUnit 'user' is not served by replicas sharing PostgreSQL in this version (the unit counts need one writer per model): serve the model from one server (SQLite), or use privacyUnit 'event'.",
    );
  }
}

/** The unit state of model `row` (null when it is event-level). */
export async function unitModel(row: ModelRow, store: Store): Promise<UnitModel | null> {
  const config = resolveConfig(row.policy as PolicyId, row.options);
  const settings = 'delta' in config ? unitSettings(config) : null;
  if (settings === null) return null;
  const counters = new StoreUnitCounters();
  const clock = { now: 0 };
  const totals = await store.unitTotals(row.name);
  const spec = settings.epoch;
  const period = spec.kind === 'days' ? spec.days * DAY_MS : 0;
  return {
    counters,
    clock,
    runtime: { clock: () => clock.now, counters },
    openEpochTime: spec.kind === 'days' && totals.openEpoch >= 0 ? totals.openEpoch * period : 0,
    epochAt: (ms) => epochIndex(spec, ms, 0),
    sampled: 'q' in config && typeof config.q === 'number' && config.q < 1,
  };
}

/**
 * The unit a reward is learned with: the rank's unit, or the reward body's when the rank named none
 * (the two must agree when both are given); a user-level model refuses a reward without one.
 */
export function rewardUnit(
  row: ModelRow,
  eventId: string,
  decisionUnit: string | null,
  bodyUnit: string | undefined,
  userLevel: boolean,
): string | null {
  if (decisionUnit !== null && bodyUnit !== undefined && bodyUnit !== decisionUnit) {
    throw new ServiceError(
      409,
      'unit_mismatch',
      `eventId '${eventId}' was ranked for unit '${decisionUnit}'; the reward names unit '${bodyUnit}'. Nothing was recorded.`,
    );
  }
  const unit = decisionUnit ?? bodyUnit ?? null;
  if (unit === null && userLevel) {
    throw new ServiceError(
      400,
      'unit_required',
      `model '${row.name}' protects users (privacyUnit 'user'): the reward of eventId '${eventId}' needs its unit. Nothing was recorded.`,
    );
  }
  return unit;
}
