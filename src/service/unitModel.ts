/**
 * The privacy unit of a served model: which user-level options the service accepts, the store-backed
 * unit counts and clock of a user-level model ({@link ModelRuntime} on one server), its bounds and
 * epochs on replicas ({@link ReplicaRuntime}), and the unit of a reward.
 */
import type { PolicyConfig, PolicyId, PolicyRuntime } from '../policies/index.js';
import { resolveConfig, unitSettings } from '../policies/index.js';
import { admitContribution, epochIndex, type UnitCount } from '../privacy/index.js';
import type { AdmitUnit, ModelRow, Store } from '../store/index.js';
import { replicaReleaseUnit } from './replicaReleaseUnit.js';
import { ServiceError } from './ServiceError.js';
import { StoreUnitCounters } from './StoreUnitCounters.js';
import { storedPolicySpec } from './storedPolicySpec.js';

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
 * by the replay after a restart). Replicas sharing PostgreSQL refuse some (`checkReplicaUnitOptions`).
 */
export function checkServedUnitOptions(id: PolicyId, config: PolicyConfig, replicas: boolean): void {
  if (!('privacyUnit' in config) || config.privacyUnit !== 'user') return;
  if (replicas) checkReplicaUnitOptions(id, config);
}

/**
 * What replicas sharing PostgreSQL refuse of a user-level model, whatever one server accepts: units
 * sampled at q < 1 (the store admits rewards without a sample draw), `epochRounds` (the replicas'
 * epochs are on their clocks) and the policies with serialised learning (their releases come when
 * the policy decides, so the release a reward enters is not known when the replicas admit it).
 */
function checkReplicaUnitOptions(id: PolicyId, config: PolicyConfig): void {
  const on = 'on replicas sharing PostgreSQL';
  if ('q' in config && typeof config.q === 'number' && config.q < 1) {
    throw new ServiceError(
      400,
      'invalid_options',
      `options.q = ${config.q} with privacyUnit 'user' is not served ${on}: their admission of a reward draws no unit sample. Use q = 1 (or adaprivate-ts) there, or serve the model from one server.`,
    );
  }
  if ('epochRounds' in config && config.epochRounds !== undefined) {
    throw new ServiceError(
      400,
      'invalid_options',
      `options.epochRounds is not served ${on}: their epochs are on the servers' clock; use epochDays (or neither, for one lifetime epoch).`,
    );
  }
  if (replicaReleaseUnit(id, config as Readonly<Record<string, unknown>>).serialised) {
    throw new ServiceError(
      400,
      'invalid_options',
      `privacyUnit 'user' with '${id}' is not served ${on}: its releases come when the policy decides (not after a fixed number of rewards), so the release a reward enters is not known when the replicas admit it under the contribution bounds. Use the AdaPrivate family (adaprivate-ts, -ucb, -ts-amp at q = 1, -ts-adaptive: batched releases) on replicas, or serve '${id}' from one server (SQLite).`,
    );
  }
}

/** What a {@link ReplicaRuntime} keeps for a user-level model: the bounds and its epochs. */
export interface ReplicaUnits {
  /** The contribution-bound rule on a stored count, as the store applies it under the model lock. */
  readonly admit: AdmitUnit;
  /** The epoch at time `ms` (ms since 1970). */
  epochAt(ms: number): number;
  /** A time (ms) in epoch `epoch`: the clock a release's replay reads. */
  epochStart(epoch: number): number;
}

/**
 * The unit bounds and epochs of model `row` on replicas (null when it is event-level). The decision
 * on each reward is the one rule, {@link admitContribution} (the same function the policies call on
 * one server), applied to the unit's row inside the store's transaction.
 */
export function replicaUnits(row: ModelRow): ReplicaUnits | null {
  const config = resolveConfig(row.policy as PolicyId, row.options);
  const settings = 'delta' in config ? unitSettings(config) : null;
  if (settings === null) return null;
  const spec = settings.epoch;
  const bounds = { contributionsPerRelease: settings.c, releasesPerEpoch: settings.m };
  return {
    admit: (row, epoch, release) => {
      const prev: UnitCount | undefined = row === null ? undefined : StoreUnitCounters.countOf(row);
      const r = admitContribution(prev, epoch, release, bounds);
      if (r.next === null)
        return { count: null, dropped: r.admission === 'perEpoch' ? 'perEpoch' : 'perRelease' };
      const n = r.next;
      return {
        count: {
          epoch: n.epoch,
          release: n.release,
          inRelease: n.inRelease,
          releases: n.releases,
          sampled: null,
        },
        dropped: null,
      };
    },
    epochAt: (ms) => epochIndex(spec, ms, 0),
    epochStart: (epoch) => (spec.kind === 'days' ? epoch * spec.days * DAY_MS : 0),
  };
}

/** The unit state of model `row` (null when it is event-level). */
export async function unitModel(row: ModelRow, store: Store): Promise<UnitModel | null> {
  const stored = storedPolicySpec(row);
  const config = resolveConfig(stored.id, stored.options);
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

/** A user-level model refuses a rank that names no unit (400 unit_required). */
export function requireRankUnit(row: ModelRow, unit: string | undefined, userLevel: boolean): void {
  if (userLevel && unit === undefined) {
    throw new ServiceError(
      400,
      'unit_required',
      `model '${row.name}' protects users (privacyUnit 'user'): each rank must name its unit (the user or device id whose rewards are bounded and protected together).`,
    );
  }
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
