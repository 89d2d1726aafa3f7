/**
 * What both runtimes ({@link ModelRuntime} on one server, {@link ReplicaRuntime} on replicas) hand
 * to the store: the release a policy made in one step, and a reward to record.
 */
import type { Policy } from '../policies/index.js';
import type { ModelRow, ReleaseInput, RewardInput } from '../store/index.js';

/**
 * The step that takes the model to `version`: the policy's snapshot and guarantee now, and the
 * privacy releases it made since its ledger counted `before` (0 for a learning step that released
 * nothing, on replicas with serialised learning).
 */
export function stepRelease(policy: Policy, before: number, version: number, rounds: number): ReleaseInput {
  const spent = policy.privacy();
  return {
    version,
    snapshot: JSON.stringify(policy.snapshot()),
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
