/** Models: create (PUT, first wins), list, status. */
import type { FastifyPluginAsync } from 'fastify';
import type { CreateModelRequest } from '../apiTypes.js';
import type { ModelRegistry } from '../ModelRegistry.js';
import { createModelBody, modelNameParams, modelView, responses } from '../schemas.js';

export const modelsPlugin: FastifyPluginAsync<{ readonly registry: ModelRegistry }> = async (app, opts) => {
  const { registry } = opts;
  app.put<{ Params: { name: string }; Body: CreateModelRequest }>(
    '/models/:name',
    {
      schema: {
        summary: 'Create a model (first wins)',
        description:
          '201 when created; 200 when a model of that name exists with the same parameters; 409 privacy_parameters_changed or model_exists when it exists with different ones.',
        tags: ['models'],
        params: modelNameParams,
        body: createModelBody,
        response: {
          ...responses(201, modelView, 'Created'),
          200: { description: 'Already existed', ...modelView },
        },
      },
    },
    async (req, reply) => {
      const r = await registry.create(req.params.name, req.body);
      return reply.code(r.created ? 201 : 200).send(r);
    },
  );
  app.get(
    '/models',
    {
      schema: {
        summary: 'List the models',
        tags: ['models'],
        response: responses(
          200,
          { type: 'object', properties: { models: { type: 'array', items: modelView } } },
          'Models by name',
        ),
      },
    },
    async () => ({ models: await registry.list() }),
  );
  app.get<{ Params: { name: string } }>(
    '/models/:name',
    {
      schema: {
        summary: 'Model status',
        description:
          'Rounds, pending rewards, batches released, the guarantee spent (from the ledger), the budget left for horizon-bounded policies, clipped features.',
        tags: ['models'],
        params: modelNameParams,
        response: responses(200, { type: 'object', additionalProperties: true }, 'Status'),
      },
    },
    async (req) => (await registry.get(req.params.name)).status(),
  );
};
