/**
 * The four reward-admission rules, written once for both runtimes ({@link ModelRuntime} on one
 * server, {@link ReplicaRuntime} on replicas): a reward is refused, and nothing is recorded, when its
 * event has no decision (404 `event_not_found`), when its window has closed (410
 * `reward_window_closed`), when the event already has a reward (409 `duplicate_reward`: first
 * wins), and when the model has learned its horizon (409 `horizon_exhausted`: a horizon-bounded
 * policy's guarantee covers `horizon` rounds). Before them, the reward's range [0, 1] is checked
 * once, by {@link checkRewardRange}, for the single and the batch route (HTTP 400
 * `reward_out_of_range`; the contract documents the range, Ajv does not check it).
 */
import type { ModelRow, RewardTarget } from '../store/index.js';
import { ServiceError } from './ServiceError.js';

/**
 * The reward's range: a finite number in [0, 1], or 400 `reward_out_of_range` naming `field`.
 *
 * @example
 * checkRewardRange(1.5, 'reward'); // throws ServiceError 400 'reward must be a number in [0, 1]; reward is 1.5.'
 */
export function checkRewardRange(reward: number, field: string): void {
  if (!(reward >= 0 && reward <= 1)) {
    throw new ServiceError(
      400,
      'reward_out_of_range',
      `reward must be a number in [0, 1]; ${field} is ${reward}.`,
    );
  }
}

/** Rule 1: the event has no decision in the model. */
export function eventNotFound(model: string, eventId: string): ServiceError {
  return new ServiceError(
    404,
    'event_not_found',
    `eventId '${eventId}' has no decision in model '${model}'.`,
  );
}

/** Rule 3: the event already has a reward. */
export function duplicateReward(eventId: string): ServiceError {
  return new ServiceError(
    409,
    'duplicate_reward',
    `eventId '${eventId}' already has a reward (duplicate rule: first wins); this one was not recorded.`,
  );
}

/** Rule 4: a horizon-bounded model has learned its horizon. */
export function horizonExhausted(model: string, horizon: number): ServiceError {
  return new ServiceError(
    409,
    'horizon_exhausted',
    `model '${model}' has learned its horizon of ${horizon} rounds, which its privacy guarantee covers; it keeps deciding from its last release but learns no more. The reward was not recorded.`,
  );
}

/**
 * Rules 1 to 3 on the event's decision as read from the store (`target`, null when there is none)
 * at time `now` (ms): throws the refusal, or returns the target when the reward may be recorded.
 * Rule 4 is the caller's (a replica learns the count of learned rounds from the store's write).
 */
export function admitReward(
  row: ModelRow,
  eventId: string,
  target: RewardTarget | null,
  now: number,
): RewardTarget {
  if (target === null) throw eventNotFound(row.name, eventId);
  const window = row.settings.rewardWindowSeconds;
  if (now > target.time + window * 1000) {
    throw new ServiceError(
      410,
      'reward_window_closed',
      `the reward window of eventId '${eventId}' (${window} s after its decision) has closed; the reward was not recorded.`,
    );
  }
  if (target.rewardState !== 'none') throw duplicateReward(eventId);
  return target;
}
