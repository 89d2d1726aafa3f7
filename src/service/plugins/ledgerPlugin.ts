/** The ledger of releases of a model, with the guarantee spent. */
import type { FastifyPluginAsync } from 'fastify';
import type { ModelRegistry } from '../ModelRegistry.js';
import { modelNameParams, responses } from '../schemas.js';

export const ledgerPlugin: FastifyPluginAsync<{ readonly registry: ModelRegistry }> = async (app, opts) => {
  const { registry } = opts;
  app.get<{ Params: { name: string } }>(
    '/models/:name/ledger',
    {
      schema: {
        summary: 'Ledger of releases',
        description:
          'Every committed release (version, time, rewards it consumed, ledger releases, rounds, the guarantee after it) and the guarantee spent now. A deleted model (tombstone) answers its kept ledger with deletedAt.',
        tags: ['ledger'],
        params: modelNameParams,
        response: responses(200, { type: 'object', additionalProperties: true }, 'Ledger'),
      },
    },
    async (req) => registry.ledger(req.params.name),
  );
};
