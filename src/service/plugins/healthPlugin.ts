/** Health: 200 when the database answers, 503 otherwise (no API key needed). */
import type { FastifyPluginAsync } from 'fastify';
import type { Store } from '../../store/index.js';
import { VERSION } from '../../version.js';
import { errorResponses, HealthResponse } from '../contract.js';

export const healthPlugin: FastifyPluginAsync<{ readonly store: Store }> = async (app, opts) => {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'health',
        summary: 'Health',
        security: [],
        tags: ['health'],
        response: {
          200: { ...HealthResponse, description: 'The database answers' },
          503: { ...errorResponses['5xx'], description: 'The database does not answer' },
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
