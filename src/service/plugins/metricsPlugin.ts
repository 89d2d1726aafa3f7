/** Prometheus metrics at GET /metrics (text exposition format) and the request-duration histogram. */
import type { FastifyPluginAsync } from 'fastify';
import type { ServiceMetrics } from '../ServiceMetrics.js';

export const metricsPlugin: FastifyPluginAsync<{ readonly metrics: ServiceMetrics }> = async (app, opts) => {
  const { metrics } = opts;
  app.get(
    '/metrics',
    { schema: { summary: 'Prometheus metrics', tags: ['metrics'], produces: ['text/plain'] } },
    async (_req, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
};
