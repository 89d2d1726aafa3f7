/**
 * `createServer`: the decision service as a Fastify app. One plugin per concern (models, decisions,
 * rewards, ledger under /v1 behind the API key; health and metrics open), route schemas that both
 * validate and document (OpenAPI at /openapi.json), the storage behind the {@link Store} interface.
 *
 * Errors: every 4xx/5xx answer is `{ statusCode, code, error, message }` with a one-line message;
 * no stack trace ever leaves the server (5xx are logged with their stack and answered generically).
 */
import swagger from '@fastify/swagger';
import Fastify, { type FastifyError, type FastifyInstance, LogController } from 'fastify';
import { type SnapshotKey, snapshotKeyBytes } from '../policies/snapshotKey.js';
import type { ReleaseCommitInfo, Store } from '../store/index.js';
import { isPostgresUrl } from '../store/isPostgresUrl.js';
import { ModelDeletedError } from '../store/ModelDeletedError.js';
import { SqliteStore } from '../store/SqliteStore.js';
import { VERSION } from '../version.js';
import { ApiKeys } from './ApiKeys.js';
import { type AuthFailureLimit, authGuard, DEFAULT_AUTH_FAILURE_LIMIT } from './authGuard.js';
import { DEFAULT_LIMITS, ErrorBody, type ServiceLimits } from './contract.js';
import { errorBody, internalErrorBody } from './errorBody.js';
import { jsonTextParser } from './jsonBody.js';
import { ModelRegistry } from './ModelRegistry.js';
import { batchPlugin } from './plugins/batchPlugin.js';
import { decisionsPlugin } from './plugins/decisionsPlugin.js';
import { healthPlugin } from './plugins/healthPlugin.js';
import { ledgerPlugin } from './plugins/ledgerPlugin.js';
import { metricsPlugin } from './plugins/metricsPlugin.js';
import { modelsPlugin } from './plugins/modelsPlugin.js';
import { rewardsPlugin } from './plugins/rewardsPlugin.js';
import { uiPlugin } from './plugins/uiPlugin.js';
import { ServiceError } from './ServiceError.js';
import { isRewardRoute, ServiceMetrics } from './ServiceMetrics.js';

/** Options of {@link createServer}. */
export interface ServerOptions {
  /**
   * SQLite file (default './adaprivate.db'), or a `postgres://` URL: a database that several
   * replicas share (its schema must be current: `adaprivate migrate`). Ignored when `store` is given.
   */
  readonly db?: string;
  /** A store to use instead of opening `db` (closed with the server). */
  readonly store?: Store;
  /** SQLite durability: 'normal' (default; survives a process crash) or 'full' (fsync per commit). */
  readonly synchronous?: 'normal' | 'full';
  /**
   * The key of the MAC on every stored policy snapshot (a Uint8Array of >= 32 bytes or a string of
   * >= 32 characters): a snapshot in the database that does not verify under it is refused, so a
   * database edited by hand cannot be loaded into a weaker guarantee. Default: this process's random
   * key, so that a database written by one process cannot be served by another: give a key to serve
   * a database again after a restart or from several replicas (`adaprivate serve` keeps it in
   * `<db>.snapshot-key` or takes `--snapshot-key-file`; docs/serving.md).
   */
  readonly snapshotKey?: SnapshotKey;
  /** The API keys (at least one, each >= 32 characters) required on every /v1 route. */
  readonly apiKeys: readonly string[] | ApiKeys;
  /**
   * Failed authentication per client address: after `maxFailures` (default 20) missing or wrong keys
   * within `windowMs` (default 60000), 429 for every request from it until the window ends.
   */
  readonly authFailureLimit?: Partial<AuthFailureLimit>;
  /** Request limits; defaults: 1 MiB body, 1000 arms, 1000 features, 1000 events per batch. */
  readonly limits?: Partial<ServiceLimits>;
  /** pino logger options, or false for no log (default: info level on stdout). */
  readonly logger?: boolean | Readonly<Record<string, unknown>>;
  /** Log every request (default false: errors, warnings and lifecycle only). */
  readonly logRequests?: boolean;
  /** Clock in milliseconds since the epoch (default Date.now; tests inject one). */
  readonly now?: () => number;
  /** Milliseconds between default-reward sweeps (default 1000; 0: at every reward). */
  readonly sweepIntervalMs?: number;
  /**
   * Serve GET /metrics without the API key (default false: the key is required, like /v1). The
   * metrics carry no per-reward signal either way (ServiceMetrics).
   */
  readonly openMetrics?: boolean;
  /**
   * Retention of decisions (docs/serving.md, "Retention"): days after which a decision (its arms'
   * features, probabilities, logged reward and unit) is removed from the database and so from the
   * export, once its reward is settled; a positive number, default none (kept for as long as the
   * model). Decisions whose raw reward waits for its release are never removed.
   */
  readonly retainDecisionsDays?: number;
  /** Milliseconds between two retention passes (default 3600000: hourly; only with `retainDecisionsDays`). */
  readonly retentionIntervalMs?: number;
  /** Collect the process metrics of prom-client (default true). */
  readonly defaultMetrics?: boolean;
  /**
   * SQLite group commit: the writes of concurrent requests commit in one transaction, each answer
   * after its commit (default true; false: one transaction per write). See SqliteStoreOptions.
   */
  readonly groupCommit?: boolean;
  /**
   * SQLite WAL checkpoints: 'background' (default: a worker thread, so that their fsync calls never
   * hold up requests) or 'auto' (SQLite's own, in the commit that crosses 1000 pages). See
   * SqliteStoreOptions.checkpoint.
   */
  readonly checkpoint?: 'auto' | 'background';
  /**
   * Test hook passed to the store (SqliteStoreOptions.beforeReleaseCommit, called without an
   * argument; PostgresStoreOptions.beforeReleaseCommit, called with what the transaction commits).
   */
  readonly beforeReleaseCommit?: (info?: ReleaseCommitInfo) => void;
  /**
   * Replicas on PostgreSQL: milliseconds after which a request checks the stored model version
   * (release notifications may be lost); default 100.
   */
  readonly versionCheckMs?: number;
}

/** The server could not start because a stored model could not be loaded (the message names it). */
export class ModelLoadError extends Error {
  override readonly name = 'ModelLoadError';
}

/** A running (or ready to listen) decision service. */
export interface AdaPrivateServer {
  readonly app: FastifyInstance;
  readonly store: Store;
  /** Listens on `host:port` (port 0: any free port) and returns the base URL. */
  listen(options: { readonly port: number; readonly host?: string }): Promise<string>;
  /**
   * One retention pass now, at the injected clock's time (the server's timer runs it every
   * `retentionIntervalMs`): removes the decisions older than `retainDecisionsDays` (see
   * {@link ModelRegistry.expireDecisions}). Returns the count removed per model; {} without retention.
   */
  expireDecisions(): Promise<Readonly<Record<string, number>>>;
  /** Stops accepting requests, lets in-flight ones finish, stops the timers, closes the store. */
  close(): Promise<void>;
}

/**
 * Builds the service (not yet listening).
 *
 * @example
 * const server = await createServer({ db: './adaprivate.db', apiKeys: [process.env.ADAPRIVATE_API_KEY!] });
 * await server.listen({ port: 8080 }); // returns 'http://127.0.0.1:8080'
 */
export async function createServer(options: ServerOptions): Promise<AdaPrivateServer> {
  const limits: ServiceLimits = { ...DEFAULT_LIMITS, ...options.limits };
  for (const [k, v] of Object.entries(limits)) {
    if (!Number.isSafeInteger(v) || v < 1) {
      throw new RangeError(`createServer: limits.${k} must be a positive integer. Got ${String(v)}.`);
    }
  }
  const retainDays = options.retainDecisionsDays;
  if (retainDays !== undefined && !(Number.isFinite(retainDays) && retainDays > 0)) {
    throw new RangeError(
      `createServer: option 'retainDecisionsDays' must be a positive number of days. Got ${String(retainDays)}.`,
    );
  }
  const retentionMs = options.retentionIntervalMs ?? 3_600_000;
  if (!Number.isSafeInteger(retentionMs) || retentionMs < 1000) {
    throw new RangeError(
      `createServer: option 'retentionIntervalMs' must be an integer of at least 1000 (ms). Got ${String(retentionMs)}.`,
    );
  }
  const keys = options.apiKeys instanceof ApiKeys ? options.apiKeys : new ApiKeys(options.apiKeys);
  // validated now (a bad key fails before the database is opened); undefined: the per-process key
  const snapshotKey = snapshotKeyBytes(options.snapshotKey, "createServer: option 'snapshotKey'");
  const hook =
    options.beforeReleaseCommit === undefined ? {} : { beforeReleaseCommit: options.beforeReleaseCommit };
  const db = options.db ?? './adaprivate.db';
  const store =
    options.store ??
    // the PostgreSQL driver is loaded only for a postgres:// URL (a SQLite server starts without it)
    (isPostgresUrl(db)
      ? await (await import('../store/PostgresStore.js')).PostgresStore.open(db, { migrate: false, ...hook })
      : undefined) ??
    SqliteStore.open(db, {
      lock: true,
      groupCommit: options.groupCommit !== false,
      checkpoint: options.checkpoint ?? 'background',
      ...(options.synchronous === undefined ? {} : { synchronous: options.synchronous }),
      ...hook,
    });
  const metrics = new ServiceMetrics({ defaultMetrics: options.defaultMetrics !== false });
  const now = options.now ?? Date.now;
  const sweepIntervalMs = options.sweepIntervalMs ?? 1000;
  const registry = new ModelRegistry(
    { store, now, metrics, sweepIntervalMs, snapshotKey },
    options.versionCheckMs === undefined ? {} : { versionCheckMs: options.versionCheckMs },
  );

  const logger =
    options.logger === false
      ? false
      : {
          level: 'info',
          redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]'], remove: true },
          ...(typeof options.logger === 'object' ? options.logger : {}),
        };
  const app = Fastify({
    logger,
    bodyLimit: limits.bodyBytes,
    logController: new LogController({ disableRequestLogging: options.logRequests !== true }),
    return503OnClosing: true,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  });
  app.addSchema(ErrorBody);
  // JSON bodies: Fastify's parser with a fast path for texts that cannot poison a prototype
  const parseJson = jsonTextParser(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    parseJson(req, typeof body === 'string' ? body : body.toString('utf8'), done),
  );

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ServiceError)
      return reply.code(err.statusCode).send(errorBody(err.statusCode, err.code, err.message));
    // the model was deleted while the request was on its way (nothing was written)
    if (err instanceof ModelDeletedError)
      return reply.code(410).send(errorBody(410, 'model_deleted', err.message));
    if (err.validation !== undefined) {
      return reply.code(400).send(errorBody(400, 'invalid_request', `${err.message}.`));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .code(413)
        .send(
          errorBody(
            413,
            'body_too_large',
            `request body is larger than the limit of ${limits.bodyBytes} bytes.`,
          ),
        );
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply
        .code(415)
        .send(errorBody(415, 'unsupported_media_type', 'send JSON (Content-Type: application/json).'));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code =
        err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        err instanceof SyntaxError
          ? 'invalid_json'
          : 'bad_request';
      return reply.code(status).send(errorBody(status, code, err.message.split('\n')[0] ?? 'bad request'));
    }
    req.log.error({ err }, 'request failed');
    return reply.code(500).send(internalErrorBody());
  });
  app.setNotFoundHandler((req, reply) =>
    reply
      .code(404)
      .send(errorBody(404, 'route_not_found', `no route ${req.method} ${req.url.split('?')[0]}.`)),
  );
  // callback-style hooks (here and the API key check): no promise per request
  app.addHook('onResponse', (req, reply, done) => {
    // no per-reward signal: the reward routes are not counted
    if (isRewardRoute(req.routeOptions.url)) {
      done();
      return;
    }
    metrics.requestSeconds.observe(
      { method: req.method, route: req.routeOptions.url ?? 'unknown', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  await app.register(swagger, {
    // shared schemas keep their $id as their name in components.schemas (e.g. 'Error')
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'adaprivate decision service',
        version: VERSION,
        description:
          'Differentially private contextual bandits over HTTP: rank, reward by event id, a ledger of releases that survives crashes. See docs/serving.md.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/', description: 'The server that serves this document' }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key of the server (--api-key-file, ADAPRIVATE_API_KEY): Authorization: Bearer <key>.',
          },
        },
      },
    },
  });
  const auth = await authGuard(app, keys, { ...DEFAULT_AUTH_FAILURE_LIMIT, ...options.authFailureLimit });
  await app.register(healthPlugin, { store });
  await app.register(metricsPlugin, { metrics, auth: options.openMetrics === true ? null : auth });
  await app.register(uiPlugin, { registry, store, auth });
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', auth);
      // the OpenAPI document says so: every /v1 operation requires the bearer key
      v1.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, security: [{ apiKey: [] }] };
      });
      await v1.register(modelsPlugin, { registry });
      await v1.register(decisionsPlugin, { registry, store, limits, metrics });
      await v1.register(rewardsPlugin, { registry });
      await v1.register(ledgerPlugin, { registry });
      await v1.register(batchPlugin, { registry, limits, metrics });
    },
    { prefix: '/v1' },
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // load every model now so that default-reward sweeps run after a restart too. A model that cannot
  // be loaded (a snapshot of a newer format, a damaged row) stops the start with a message naming
  // it, after the store (and its connections) is closed: the process exits instead of hanging.
  try {
    for (const m of await store.listModels()) {
      try {
        await registry.get(m.name);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        throw new ModelLoadError(`cannot load model '${m.name}' (policy ${m.policy}): ${why}`, {
          cause: err,
        });
      }
    }
  } catch (err) {
    await app.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw err;
  }
  const timer = setInterval(
    () => {
      registry.sweepAll().catch((err: unknown) => app.log.error({ err }, 'default-reward sweep failed'));
    },
    Math.max(sweepIntervalMs, 100),
  );
  timer.unref();
  // a model's own retainDecisionsDays applies without the server's, so the pass always runs
  const expire = async (): Promise<Readonly<Record<string, number>>> =>
    registry.expireDecisions(retainDays === undefined ? null : retainDays * 86_400_000);
  const retentionTimer: NodeJS.Timeout | null = setInterval(() => {
    expire().catch((err: unknown) => app.log.error({ err }, 'decision retention pass failed'));
  }, retentionMs);
  retentionTimer.unref();

  let closed = false;
  return {
    app,
    store,
    expireDecisions: expire,
    async listen(o) {
      return app.listen({ port: o.port, host: o.host ?? '127.0.0.1' });
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      if (retentionTimer !== null) clearInterval(retentionTimer);
      await app.close();
      await store.close();
    },
  };
}
