/** Health: 200 when the database answers, 503 otherwise (no API key needed). */
import type { FastifyPluginAsync } from 'fastify';
import type { Store } from '../../store/index.js';
import { VERSION } from '../../version.js';

export const healthPlugin: FastifyPluginAsync<{ readonly store: Store }> = async (app, opts) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Health',
        tags: ['health'],
        response: {
          200: {
            type: 'object',
            properties: {
              status: { type: 'string' },
              engine: { type: 'string' },
              version: { type: 'string' },
            },
          },
          503: { $ref: 'Error#' },
        },
      },
    },
    async (_req, reply) => {
      try {
        await opts.store.ping();
      } catch {
        return reply.code(503).send({
          statusCode: 503,
          code: 'store_unavailable',
          error: 'Service Unavailable',
          message: 'the database does not answer.',
        });
      }
      return { status: 'ok', engine: opts.store.engine, version: VERSION };
    },
  );
};
