/** The ledger of releases of a model, with the guarantee spent. */
import type { FastifyPluginAsync } from 'fastify';
import { LedgerResponse, ModelNameParams, plainJsonSerializer, responses } from '../contract.js';
import type { ModelRegistry } from '../ModelRegistry.js';

export const ledgerPlugin: FastifyPluginAsync<{ readonly registry: ModelRegistry }> = async (app, opts) => {
  const { registry } = opts;
  app.get<{ Params: ModelNameParams }>(
    '/models/:name/ledger',
    {
      schema: {
        operationId: 'getLedger',
        summary: 'Ledger of releases',
        description:
          'Every committed release (version, time, rewards it consumed, ledger releases, rounds, the guarantee after it) and the guarantee spent now. A deleted model (tombstone) answers its kept ledger with deletedAt.',
        tags: ['ledger'],
        params: ModelNameParams,
        response: responses(200, LedgerResponse, 'Ledger'),
      },
      serializerCompiler: plainJsonSerializer,
    },
    async (req) => registry.ledger(req.params.name),
  );
};
