/**
 * What both runtimes ({@link ModelRuntime} on one server, {@link ReplicaRuntime} on replicas) hand
 * to the store: the release a policy made in one step, a decision and a reward to record, and the
 * answer to a rank whose event id is taken.
 */
import type { Policy, SnapshotKey } from '../policies/index.js';
import { copyClip } from '../policies/index.js';
import type { DecisionRow, ModelRow, ReleaseInput, RewardInput } from '../store/index.js';
import type { RankInput } from './binaryRank.js';
import { countClipped } from './countClipped.js';
import type { DriverDecision } from './policyDriver.js';
import { ServiceError } from './ServiceError.js';

/**
 * The step that takes the model to `version`: the policy's snapshot and guarantee now, and the
 * privacy releases it made since its ledger counted `before` (0 for a learning step that released
 * nothing, on replicas with serialised learning). The snapshot is signed under `key`, the service's
 * snapshot key.
 */
export function stepRelease(
  policy: Policy,
  before: number,
  version: number,
  rounds: number,
  key: SnapshotKey,
): ReleaseInput {
  const spent = policy.privacy();
  return {
    version,
    snapshot: JSON.stringify(policy.snapshot({ key })),
    spent: { ...spent },
    releases: spent.releases - before,
    rounds,
  };
}

/** The reward of `eventId` for model `row` (its value kept on the decision only if the model logs rewards). */
export function rewardInput(
  row: ModelRow,
  eventId: string,
  reward: number,
  time: number,
  source: 'given' | 'default',
): RewardInput {
  return { model: row.name, eventId, reward, time, source, logReward: row.settings.logRewards };
}

/**
 * The decision row of `req` (candidate features `feats`, k x dim) decided by `dec` at model version
 * `version`: the chosen arm's features as the policy learns them (clipped to norm 1), the candidates'
 * features as given (all k, or only the chosen arm's when the model does not log candidates: a view,
 * not a copy) and how many of them the policy clips.
 */
export function decisionRow(
  row: ModelRow,
  req: RankInput,
  eventId: string,
  feats: Float64Array,
  dim: number,
  dec: DriverDecision,
  version: number,
  time: number,
): DecisionRow {
  const chosenFeatures = new Float64Array(dim);
  copyClip(feats, dec.arm * dim, chosenFeatures, 0, dim); // the library's clipping (1e200 -> unit vector)
  return {
    model: row.name,
    eventId,
    seq: 0,
    time,
    armIds: req.arms.map((a) => a.id),
    features: row.settings.logCandidates ? feats : feats.subarray(dec.arm * dim, (dec.arm + 1) * dim),
    dim,
    chosen: dec.arm,
    chosenFeatures,
    probabilities: dec.probabilities === null ? null : Array.from(dec.probabilities),
    inversePropensity: {
      kind: dec.inversePropensity.kind,
      value: dec.inversePropensity.value,
      cap: dec.inversePropensity.cap,
    },
    modelVersion: version,
    rewardState: 'none',
    reward: null,
    rewardSource: null,
    release: null,
    ...(req.unit !== undefined ? { unit: req.unit } : {}),
    clipped: countClipped(feats, req.arms.length, dim),
  };
}

/** The 409 of a rank whose event id already has a decision in model `row`. */
export function eventExists(row: ModelRow, eventId: string): ServiceError {
  return new ServiceError(
    409,
    'event_exists',
    `eventId '${eventId}' already has a decision in model '${row.name}' (event ids are unique per model).`,
  );
}
