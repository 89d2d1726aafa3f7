/** Rewards: one reward per event id, durable when acknowledged; may release a batch in the same transaction. */
import type { FastifyPluginAsync } from 'fastify';
import {
  documentedBody,
  ModelNameParams,
  RewardBody,
  RewardBodyDocumented,
  type RewardRequest,
  RewardResponse,
  responses,
} from '../contract.js';
import type { ModelRegistry } from '../ModelRegistry.js';
import { checkRewardRange } from '../rewardAdmission.js';

export const rewardsPlugin: FastifyPluginAsync<{ readonly registry: ModelRegistry }> = async (app, opts) => {
  const { registry } = opts;
  app.post<{ Params: ModelNameParams; Body: RewardRequest }>(
    '/models/:name/rewards',
    {
      schema: {
        operationId: 'reward',
        summary: 'Reward of a decision',
        description:
          '200: recorded (durable). 400 reward_out_of_range: not in [0, 1]. 404 event_not_found: no decision with that event id. 409 duplicate_reward: the event already has a reward (first wins). 410 reward_window_closed: after the window. 409 horizon_exhausted: a horizon-bounded policy has used its horizon. Nothing is half-applied.',
        tags: ['rewards'],
        params: ModelNameParams,
        body: RewardBody,
        response: responses(200, RewardResponse, 'Recorded'),
      },
      config: documentedBody(RewardBodyDocumented),
    },
    async (req) => {
      checkRewardRange(req.body.reward, 'reward');
      return (await registry.get(req.params.name)).reward(req.body.eventId, req.body.reward, req.body.unit);
    },
  );
};
