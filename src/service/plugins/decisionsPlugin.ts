/** Decisions: rank (choose an arm, store the decision) and the NDJSON export for off-policy evaluation. */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { Store } from '../../store/index.js';
import { BINARY_RANK_TYPE, decodeBinaryRank, type RankInput } from '../binaryRank.js';
import {
  DecisionLogLine,
  ExportQuery,
  errorResponses,
  ModelNameParams,
  RankResponse,
  rankBinaryHeader,
  rankBody,
  responses,
  type ServiceLimits,
} from '../contract.js';
import { decisionLogLine } from '../decisionLogLine.js';
import type { ModelRegistry } from '../ModelRegistry.js';
import { fastRankJson } from '../rankJson.js';
import { countedRead, type ServiceMetrics } from '../ServiceMetrics.js';
import { rankBodyRoute } from './binaryBody.js';

/** Rows read from the store per page of the export. */
const EXPORT_PAGE = 500;

export const decisionsPlugin: FastifyPluginAsync<{
  readonly registry: ModelRegistry;
  readonly store: Store;
  readonly limits: ServiceLimits;
  readonly metrics: ServiceMetrics;
}> = async (app, opts) => {
  const { registry, store, limits, metrics } = opts;
  await rankBodyRoute(
    app,
    {
      decode: decodeBinaryRank,
      json: rankBody(limits),
      header: rankBinaryHeader(limits),
      layout:
        'The binary rank body: the 4 bytes APR1, the header length H (uint32, little-endian), H bytes of JSON header (this request without features: arms [{ id }]), zero bytes to a multiple of 8, then the K x d features as little-endian Float64 values, arm by arm (docs/serving.md, "Binary rank body").',
      fast: (bytes) => countedRead(metrics, fastRankJson(bytes, limits)),
    },
    (rank, body) => {
      rank.post<{ Params: ModelNameParams; Body: RankInput }>(
        '/models/:name/rank',
        {
          ...body.route,
          schema: {
            operationId: 'rank',
            summary: 'Rank: choose one of the candidate arms',
            description: `Returns the event id (yours or a generated UUID), the chosen arm, the probability of every arm and the model version. The decision is stored before the answer. The body may also be sent as ${BINARY_RANK_TYPE}: a JSON header without features and the K x d features as raw little-endian Float64 values (docs/serving.md, "Binary rank body"); its schema here is that header's.`,
            tags: ['decisions'],
            params: ModelNameParams,
            body: body.body,
            response: responses(200, RankResponse, 'The decision'),
          },
        },
        async (req) => (await registry.get(req.params.name)).rank(req.body),
      );
    },
  );
  app.get<{ Params: ModelNameParams; Querystring: ExportQuery }>(
    '/models/:name/decisions',
    {
      schema: {
        operationId: 'exportDecisions',
        summary: 'Export decisions (NDJSON)',
        description:
          'One JSON object per line: eventId, time, arms (id + features), chosen, propensity, probabilities, reward (only for models created with logRewards), model, modelVersion, cursor; in decision order. Page with ?limit=<n>&after=<cursor of the last line>.',
        tags: ['decisions'],
        params: ModelNameParams,
        querystring: ExportQuery,
        response: {
          200: {
            description: 'One DecisionLogLine per line (NDJSON)',
            content: { 'application/x-ndjson': { schema: DecisionLogLine } },
          },
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      const rt = await registry.get(req.params.name);
      const name = rt.row.name;
      const logRewards = rt.row.settings.logRewards;
      let after = req.query.after === undefined ? 0 : Number(req.query.after);
      let left = req.query.limit === undefined ? Number.POSITIVE_INFINITY : Number(req.query.limit);
      async function* lines() {
        while (left > 0) {
          const rows = await store.exportDecisions(name, {
            afterSeq: after,
            limit: Math.min(EXPORT_PAGE, left),
          });
          await store.durable(); // export only committed decisions
          if (rows.length === 0) return;
          let chunk = '';
          for (const r of rows) chunk += `${JSON.stringify(decisionLogLine(r, logRewards))}\n`;
          after = rows[rows.length - 1]!.seq;
          left -= rows.length;
          yield chunk;
        }
      }
      return reply.type('application/x-ndjson').send(Readable.from(lines()));
    },
  );
};
