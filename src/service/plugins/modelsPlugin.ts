/** Models: create (PUT, first wins), list, status, delete (tombstone or confirmed purge). */
import type { FastifyPluginAsync } from 'fastify';
import {
  CreateModelBody,
  CreateModelEnvelope,
  DeleteModelQuery,
  DeleteModelResponse,
  documentedBody,
  ModelList,
  ModelNameParams,
  ModelStatus,
  ModelView,
  plainJsonSerializer,
  responses,
} from '../contract.js';
import type { ModelRegistry } from '../ModelRegistry.js';

export const modelsPlugin: FastifyPluginAsync<{ readonly registry: ModelRegistry }> = async (app, opts) => {
  const { registry } = opts;
  app.put<{ Params: ModelNameParams; Body: CreateModelEnvelope }>(
    '/models/:name',
    {
      schema: {
        operationId: 'createModel',
        summary: 'Create a model (first wins)',
        description:
          '201 when created; 200 when a model of that name exists with the same parameters; 400 unknown_policy or invalid_options (the message names the option, the value and the rule); 409 privacy_parameters_changed or model_exists when it exists with different ones.',
        tags: ['models'],
        params: ModelNameParams,
        body: CreateModelEnvelope,
        response: {
          ...responses(201, ModelView, 'Created'),
          200: { ...ModelView, description: 'Already existed' },
        },
      },
      config: documentedBody(CreateModelBody),
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
        operationId: 'listModels',
        summary: 'List the models',
        tags: ['models'],
        response: responses(200, ModelList, 'Models by name'),
      },
    },
    async () => ({ models: await registry.list() }),
  );
  app.get<{ Params: ModelNameParams }>(
    '/models/:name',
    {
      schema: {
        operationId: 'getModelStatus',
        summary: 'Model status',
        description:
          'Rounds, pending rewards, batches released, the guarantee spent (from the ledger), the budget left for horizon-bounded policies, clipped features.',
        tags: ['models'],
        params: ModelNameParams,
        response: responses(200, ModelStatus, 'Status'),
      },
      serializerCompiler: plainJsonSerializer,
    },
    async (req) => (await registry.get(req.params.name)).status(),
  );
  app.delete<{ Params: ModelNameParams; Querystring: DeleteModelQuery }>(
    '/models/:name',
    {
      schema: {
        operationId: 'deleteModel',
        summary: 'Delete a model (tombstone; purge when confirmed)',
        description:
          'Default: a tombstone. The model stops serving (410 model_deleted); its decisions, stored features and raw pending rewards are erased; its ledger is kept (GET /v1/models/{name}/ledger) and the name cannot be created again. With purge=true and confirm={name}: the ledger is removed too and the name is free. Released outputs cannot be recalled: see docs/serving.md, "Deleting a model".',
        tags: ['models'],
        params: ModelNameParams,
        querystring: DeleteModelQuery,
        response: responses(200, DeleteModelResponse, 'Deleted'),
      },
    },
    async (req) => registry.delete(req.params.name, req.query.purge === 'true', req.query.confirm),
  );
};
