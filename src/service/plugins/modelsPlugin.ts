/** Models: create (PUT, first wins), list, status, delete (tombstone or confirmed purge). */
import type { FastifyPluginAsync } from 'fastify';
import type { CreateModelRequest, DeleteModelQuery } from '../apiTypes.js';
import type { ModelRegistry } from '../ModelRegistry.js';
import {
  createModelBody,
  deleteModelQuery,
  deleteModelView,
  modelNameParams,
  modelView,
  responses,
} from '../schemas.js';

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
  app.delete<{ Params: { name: string }; Querystring: DeleteModelQuery }>(
    '/models/:name',
    {
      schema: {
        summary: 'Delete a model (tombstone; purge when confirmed)',
        description:
          'Default: a tombstone. The model stops serving (410 model_deleted); its decisions, stored features and raw pending rewards are erased; its ledger is kept (GET /v1/models/{name}/ledger) and the name cannot be created again. With purge=true and confirm={name}: the ledger is removed too and the name is free. Released outputs cannot be recalled: see docs/serving.md, "Deleting a model".',
        tags: ['models'],
        params: modelNameParams,
        querystring: deleteModelQuery,
        response: responses(200, deleteModelView, 'Deleted'),
      },
    },
    async (req) => registry.delete(req.params.name, req.query.purge === 'true', req.query.confirm),
  );
};
