/**
 * Batches: many rank requests, or many rewards, in one HTTP request. Each event goes through the
 * same code as its single-event route (same checks, same statuses, same durability): the events are
 * applied in the request's order (on a single server, as one turn on the model's queue: no other
 * request runs between them), their writes commit together (group commit), and the answer, sent
 * after that commit, holds one result per event. A failed event gets the error the
 * single-event route would have answered and nothing of it is applied; a 4xx fails that event alone,
 * a failed commit (5xx) every event whose writes it held; a malformed request, an unknown model or a wrong key fails the whole request, before any
 * event is applied.
 */
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { decodeBinaryRankBatch, type RankBatchInput, type RankInput } from '../binaryRank.js';
import {
  type BatchResult,
  documentedBody,
  ModelNameParams,
  RankBatchResponse,
  type RewardBatchRequest,
  RewardBatchResponse,
  type RewardResponse,
  rankBatchBinaryHeader,
  rankBatchBody,
  responses,
  rewardBatchBody,
  rewardBatchBodyDocumented,
  type ServiceLimits,
} from '../contract.js';
import { errorBody, internalErrorBody } from '../errorBody.js';
import type { ModelRegistry } from '../ModelRegistry.js';
import { fastRankBatchJson } from '../rankJson.js';
import { checkRewardRange } from '../rewardAdmission.js';
import type { Outcome } from '../ServedModel.js';
import { ServiceError } from '../ServiceError.js';
import { countedRead, type ServiceMetrics } from '../ServiceMetrics.js';
import { rankBodyRoute } from './binaryBody.js';

/** One event's outcome as a batch result (an unexpected error is logged and answered as a 500). */
function result<T extends object>(
  o: Outcome<T>,
  eventId: string | undefined,
  log: FastifyBaseLogger,
): BatchResult<T> {
  if (o.ok) return { ok: true, statusCode: 200, ...o.value };
  const err = o.error;
  const id = eventId === undefined ? {} : { eventId };
  if (err instanceof ServiceError) {
    return { ok: false, ...id, ...errorBody(err.statusCode, err.code, err.message) };
  }
  log.error({ err }, 'batch event failed');
  return { ok: false, ...id, ...internalErrorBody() };
}

export const batchPlugin: FastifyPluginAsync<{
  readonly registry: ModelRegistry;
  readonly limits: ServiceLimits;
  readonly metrics: ServiceMetrics;
}> = async (app, opts) => {
  const { registry, limits, metrics } = opts;
  await rankBodyRoute(
    app,
    {
      decode: decodeBinaryRankBatch,
      json: rankBatchBody(limits),
      header: rankBatchBinaryHeader(limits),
      layout:
        'The binary rank/batch body: the 4 bytes APR1, the header length H (uint32, little-endian), H bytes of JSON header ({ events: [each request without features: arms [{ id }]] }), zero bytes to a multiple of 8, then every event\'s K x d features as little-endian Float64 values, event by event and arm by arm, one d for all (docs/serving.md, "Binary rank body").',
      fast: (bytes) => countedRead(metrics, fastRankBatchJson(bytes, limits)),
    },
    (rank, rankBody) => {
      rank.post<{ Params: ModelNameParams; Body: RankBatchInput }>(
        '/models/:name/rank/batch',
        {
          ...rankBody.route,
          schema: {
            operationId: 'rankBatch',
            summary: 'Rank a batch of events',
            description: `Up to ${limits.batch} rank requests, decided in order, each as by the rank route (the body may also be sent as a binary rank/batch body, docs/serving.md "Binary rank body"). 200 with one result per event: ok true with the rank answer, or ok false with the status and code the rank route would have answered (e.g. 409 event_exists, 400 dimension_mismatch); a failed event changes nothing. Every decision is stored before the answer.`,
            tags: ['decisions'],
            params: ModelNameParams,
            body: rankBody.body,
            response: responses(200, RankBatchResponse, 'One result per event, in order'),
          },
        },
        async (req): Promise<RankBatchResponse> => {
          const model = await registry.get(req.params.name);
          const events: readonly RankInput[] = req.body.events;
          const outcomes = await model.rankMany(events);
          return { results: outcomes.map((o, i) => result(o, events[i]!.eventId, req.log)) };
        },
      );
    },
  );
  app.post<{ Params: ModelNameParams; Body: RewardBatchRequest }>(
    '/models/:name/rewards/batch',
    {
      schema: {
        operationId: 'rewardBatch',
        summary: 'Rewards of a batch of decisions',
        description: `Up to ${limits.batch} rewards, recorded in order, each as by the rewards route. 200 with one result per event: ok true with the reward answer (durable), or ok false with the status and code the rewards route would have answered (400 reward_out_of_range, 404 event_not_found, 409 duplicate_reward, 410 reward_window_closed, 409 horizon_exhausted); a failed event changes nothing.`,
        tags: ['rewards'],
        params: ModelNameParams,
        body: rewardBatchBody(limits),
        response: responses(200, RewardBatchResponse, 'One result per event, in order'),
      },
      config: documentedBody(rewardBatchBodyDocumented(limits)),
    },
    async (req): Promise<RewardBatchResponse> => {
      const model = await registry.get(req.params.name);
      const rewards = req.body.rewards;
      // a reward out of range fails alone, before the model sees the others
      const refused = rewards.map((r, i): Outcome<RewardResponse> | null => {
        try {
          checkRewardRange(r.reward, `rewards[${i}].reward`);
          return null;
        } catch (error) {
          return { ok: false, error };
        }
      });
      const outcomes = await model.rewardMany(rewards.filter((_, i) => refused[i] === null));
      let next = 0;
      return {
        results: rewards.map((r, i) => result(refused[i] ?? outcomes[next++]!, r.eventId, req.log)),
      };
    },
  );
};
