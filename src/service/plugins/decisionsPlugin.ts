/** Decisions: rank (choose an arm, store the decision) and the NDJSON export for off-policy evaluation. */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { Store } from '../../store/index.js';
import type { RankRequest } from '../apiTypes.js';
import { decisionLogLine } from '../decisionLogLine.js';
import type { ModelRegistry } from '../ModelRegistry.js';
import {
  exportQuery,
  modelNameParams,
  rankBody,
  rankResponse,
  responses,
  type ServiceLimits,
} from '../schemas.js';

/** Rows read from the store per page of the export. */
const EXPORT_PAGE = 500;

export const decisionsPlugin: FastifyPluginAsync<{
  readonly registry: ModelRegistry;
  readonly store: Store;
  readonly limits: ServiceLimits;
}> = async (app, opts) => {
  const { registry, store, limits } = opts;
  app.post<{ Params: { name: string }; Body: RankRequest }>(
    '/models/:name/rank',
    {
      schema: {
        summary: 'Rank: choose one of the candidate arms',
        description:
          'Returns the event id (yours or a generated UUID), the chosen arm, the probability of every arm and the model version. The decision is stored before the answer.',
        tags: ['decisions'],
        params: modelNameParams,
        body: rankBody(limits),
        response: responses(200, rankResponse, 'The decision'),
      },
    },
    async (req) => (await registry.get(req.params.name)).rank(req.body),
  );
  app.get<{ Params: { name: string }; Querystring: { after?: string; limit?: string } }>(
    '/models/:name/decisions',
    {
      schema: {
        summary: 'Export decisions (NDJSON)',
        description:
          'One JSON object per line: eventId, time, arms (id + features), chosen, propensity, probabilities, reward (only for models created with logRewards), model, modelVersion, cursor; in decision order. Page with ?limit=<n>&after=<cursor of the last line>.',
        tags: ['decisions'],
        params: modelNameParams,
        querystring: exportQuery,
        produces: ['application/x-ndjson'],
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
