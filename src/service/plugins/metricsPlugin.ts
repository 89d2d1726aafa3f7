/**
 * Prometheus metrics at GET /metrics (text exposition format): behind the API key unless `open`
 * (ServerOptions.openMetrics). What they show, and what they do not: ../ServiceMetrics.ts.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses } from '../contract.js';
import type { ServiceMetrics } from '../ServiceMetrics.js';

export const metricsPlugin: FastifyPluginAsync<{
  readonly metrics: ServiceMetrics;
  /** The API key check of the /v1 routes, or null when the metrics are open. */
  readonly auth: ((req: FastifyRequest, reply: FastifyReply) => Promise<void>) | null;
}> = async (app, opts) => {
  const { metrics, auth } = opts;
  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        tags: ['metrics'],
        produces: ['text/plain'],
        response: {
          200: {
            description: 'Prometheus text exposition format',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          ...(auth === null ? {} : errorResponses),
        },
        security: auth === null ? [] : [{ apiKey: [] }],
      },
      ...(auth === null ? {} : { onRequest: auth }),
    },
    async (_req, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
};
