/**
 * Rows as both engines store them (the columns of ./schema.ts; times, versions and counts as numbers,
 * features as exact float64 bytes, JSON-valued fields as text) and their decoding into the
 * engine-neutral rows of ./rows.ts.
 */
import { blobToFloat64, float64ToBlob } from './float64Blob.js';
import type {
  DecisionRow,
  LedgerRow,
  LoggedInversePropensity,
  ModelRow,
  ModelSettings,
  RewardState,
  TombstoneRow,
  UnitCountRow,
} from './rows.js';

/** How `decisions.reward_state` stores a {@link RewardState}. */
export const STATE_CODE: Readonly<Record<RewardState, number>> = {
  none: 0,
  pending: 1,
  released: 2,
  dropped: 3,
};
export const STATE_NAME: readonly RewardState[] = ['none', 'pending', 'released', 'dropped'];

/** A `decisions` row as read. */
export interface DecisionDb {
  seq: number;
  model: string;
  event_id: string;
  time: number;
  arm_ids: string;
  features: Buffer;
  dim: number;
  chosen: number;
  chosen_features: Buffer;
  probabilities: string;
  model_version: number;
  reward_state: number;
  reward: number | null;
  reward_source: string | null;
  release: number | null;
  /** Schema 5 (null before it). */
  clipped?: number | null;
  /** From `decision_units` (LEFT JOIN; absent in queries without it). */
  unit?: string | null;
}

/** A `models` row as read. */
export interface ModelDb {
  name: string;
  policy: string;
  options: string;
  settings: string;
  created_at: number;
  version: number;
  rounds: number;
  snapshot: string;
}

export function toModel(r: ModelDb): ModelRow {
  return {
    name: r.name,
    policy: r.policy,
    options: JSON.parse(r.options) as Record<string, unknown>,
    // rows written before a setting existed read its default
    settings: {
      retainDecisionsDays: null,
      logCandidates: true,
      ...(JSON.parse(r.settings) as Partial<ModelSettings>),
    } as ModelSettings,
    createdAt: r.created_at,
    version: r.version,
    snapshot: r.snapshot,
  };
}

export interface TombstoneDb extends ModelDb {
  deleted_at: number;
}

export function toTombstone(r: TombstoneDb): TombstoneRow {
  return { ...toModel(r), rounds: r.rounds, deletedAt: r.deleted_at };
}

export function toDecision(r: DecisionDb): DecisionRow {
  return {
    model: r.model,
    eventId: r.event_id,
    seq: r.seq,
    time: r.time,
    armIds: JSON.parse(r.arm_ids) as string[],
    features: blobToFloat64(r.features),
    dim: r.dim,
    chosen: r.chosen,
    chosenFeatures: blobToFloat64(r.chosen_features),
    ...decodeProbabilities(r.probabilities),
    modelVersion: r.model_version,
    rewardState: STATE_NAME[r.reward_state] ?? 'none',
    reward: r.reward,
    rewardSource: r.reward_source === 'given' || r.reward_source === 'default' ? r.reward_source : null,
    release: r.release,
    unit: r.unit ?? null,
    clipped: r.clipped ?? null,
  };
}

/** Decisions with their unit (alias d; the unit from `decision_units`, null when none). */
export const DECISION_WITH_UNIT =
  'SELECT d.*, u.unit FROM decisions d LEFT JOIN decision_units u ON u.model = d.model AND u.event_id = d.event_id';

/** A `unit_counts` row as read. */
export interface UnitCountDb {
  epoch: number | string;
  release: number | string;
  in_release: number;
  releases: number;
  sampled: number | null;
}

export function toUnitCount(r: UnitCountDb): UnitCountRow {
  return {
    epoch: Number(r.epoch),
    release: Number(r.release),
    inRelease: r.in_release,
    releases: r.releases,
    sampled: r.sampled === null ? null : r.sampled === 1,
  };
}

/**
 * The `probabilities` column: a JSON array of the arm probabilities, or (decisions with a logged
 * inverse propensity) `{"p": [...], "ip": {kind, value, cap}}`, without `p` when the decision was
 * made without the display probabilities; every form is read.
 */
function decodeProbabilities(text: string): Pick<DecisionRow, 'probabilities' | 'inversePropensity'> {
  const v = JSON.parse(text) as number[] | { p?: number[]; ip: LoggedInversePropensity };
  return Array.isArray(v) ? { probabilities: v } : { probabilities: v.p ?? null, inversePropensity: v.ip };
}

function encodeProbabilities(row: DecisionRow): string {
  const ip = row.inversePropensity;
  const p = row.probabilities;
  if (ip === undefined) {
    if (p === null) throw new RangeError('decision row: probabilities or inversePropensity is needed.');
    return JSON.stringify(p);
  }
  return JSON.stringify(p === null ? { ip } : { p, ip });
}

/** A `ledger` row as read. */
export interface LedgerDb {
  model: string;
  version: number;
  time: number;
  releases: number;
  rounds: number;
  rewards: number;
  spent: string;
}

export function toLedger(r: LedgerDb): LedgerRow {
  return {
    model: r.model,
    version: r.version,
    time: r.time,
    releases: r.releases,
    rounds: r.rounds,
    rewards: r.rewards,
    spent: JSON.parse(r.spent) as Record<string, unknown>,
  };
}

/**
 * The values of a decision INSERT, in the column order both engines use: model, event_id, time,
 * arm_ids, features, dim, chosen, chosen_features, probabilities, model_version.
 */
export function decisionValues(row: DecisionRow): unknown[] {
  return [
    row.model,
    row.eventId,
    row.time,
    JSON.stringify(row.armIds),
    float64ToBlob(row.features),
    row.dim,
    row.chosen,
    float64ToBlob(row.chosenFeatures),
    encodeProbabilities(row),
    row.modelVersion,
  ];
}
