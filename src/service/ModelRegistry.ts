/**
 * The models of one server: created through the store (first wins), loaded into memory on first use,
 * reloaded from the database when a failed write left the in-memory state unconfirmed. On a store
 * that replicas share (PostgreSQL) each model is a {@link ReplicaRuntime}, refreshed by release
 * notifications; otherwise a {@link ModelRuntime}.
 */

import type { PolicyId } from '../policies/index.js';
import { createPolicy, isPolicyId, withStoredAccountant } from '../policies/index.js';
import { createSecureSeed } from '../random/index.js';
import type { ModelRow, ModelSettings } from '../store/index.js';
import { isReplicaStore } from '../store/ReplicaStore.js';
import type { CreateModelRequest, CreateModelResponse } from './apiTypes.js';
import { ModelRuntime, type RuntimeContext } from './ModelRuntime.js';
import { type ReplicaOptions, ReplicaRuntime } from './ReplicaRuntime.js';
import type { ServedModel } from './ServedModel.js';
import { ServiceError } from './ServiceError.js';
import { checkServedUnitOptions } from './unitModel.js';

/** Defaults of the model settings (docs/serving.md). */
export const MODEL_DEFAULTS = {
  rewardWindowSeconds: 3600,
  defaultReward: null,
  duplicateRule: 'first',
  logRewards: false,
  probabilitySamples: 200,
} as const;

/**
 * Options that change neither the privacy guarantee nor its calibration (exploration, the seed of the
 * policy's own randomness, the warm start, buffers, the dimension). A change of any other option
 * (epsilon, delta, rho, lambda, lambda0, q, horizon, batchSize, ... and options added later) is
 * answered `privacy_parameters_changed`: unknown options count as privacy parameters.
 */
const NON_PRIVACY_OPTIONS: ReadonlySet<string> = new Set([
  'dim',
  'seed',
  'alpha',
  'v',
  'v0',
  'gamma',
  'adaptiveSetting',
  'priorMean',
  'maxPending',
]);

function view(row: ModelRow, created: boolean): CreateModelResponse {
  return { name: row.name, created, policy: row.policy, options: row.options, settings: row.settings };
}

export class ModelRegistry {
  private readonly ctx: RuntimeContext;
  private readonly loaded = new Map<string, Promise<ServedModel | null>>();
  private readonly replica: ReplicaOptions;
  private listening: Promise<unknown> | null = null;

  constructor(ctx: RuntimeContext, replica: Partial<ReplicaOptions> = {}) {
    this.ctx = ctx;
    this.replica = { versionCheckMs: replica.versionCheckMs ?? 100 };
  }

  /** Loads model `name` with the runtime that fits the store. */
  private load(name: string): Promise<ServedModel | null> {
    const store = this.ctx.store;
    if (!isReplicaStore(store)) return ModelRuntime.load(name, this.ctx);
    if (this.listening === null) {
      // release notifications of every replica; on a broken connection the next load listens again
      // (until then the views refresh by their version check)
      this.listening = store
        .onRelease(
          (model, version) => {
            this.loaded
              .get(model)
              ?.then((rt) => {
                if (rt instanceof ReplicaRuntime) rt.notify(version);
              })
              .catch(() => {});
          },
          () => {
            this.listening = null;
          },
        )
        .catch(() => {
          this.listening = null;
        });
    }
    return ReplicaRuntime.load(name, this.ctx, store, this.replica);
  }

  /** The runtime of model `name`, or a 404 ServiceError. */
  async get(name: string): Promise<ServedModel> {
    let p = this.loaded.get(name);
    if (p !== undefined) {
      const rt = await p;
      if (rt !== null && !rt.stale) return rt;
      this.loaded.delete(name);
      p = undefined;
    }
    p = this.load(name);
    this.loaded.set(name, p);
    let rt: ServedModel | null;
    try {
      rt = await p;
    } catch (err) {
      this.loaded.delete(name);
      throw err;
    }
    if (rt === null) {
      this.loaded.delete(name);
      throw new ServiceError(
        404,
        'model_not_found',
        `model '${name}' does not exist (create it with PUT /v1/models/${name}).`,
      );
    }
    return rt;
  }

  /** Every model, by name. */
  async list(): Promise<CreateModelResponse[]> {
    const rows = await this.ctx.store.listModels();
    await this.ctx.store.durable(); // answer only with committed rows
    return rows.map((r) => view(r, false));
  }

  /** Runs the default-reward sweep of every loaded model (the server's timer calls this). */
  async sweepAll(): Promise<void> {
    for (const p of [...this.loaded.values()]) {
      const rt = await p.catch(() => null);
      if (rt !== null && !rt.stale) await rt.sweep();
    }
  }

  /**
   * Creates model `name`. First wins: when it exists with the same parameters the answer is the
   * stored model (created: false); a different privacy parameter is refused (409
   * privacy_parameters_changed), any other difference too (409 model_exists), naming the field.
   */
  async create(name: string, req: CreateModelRequest): Promise<CreateModelResponse> {
    if (!isPolicyId(req.policy)) {
      throw new ServiceError(
        400,
        'unknown_policy',
        `policy '${req.policy}' is not a policy id (see GET /openapi.json).`,
      );
    }
    const id: PolicyId = req.policy;
    if ('noiseSeed' in req.options) {
      throw new ServiceError(
        400,
        'noise_seed_refused',
        'options.noiseSeed is refused: the server draws privacy noise from a secure source only.',
      );
    }
    const settings: ModelSettings = {
      rewardWindowSeconds: req.rewardWindowSeconds ?? MODEL_DEFAULTS.rewardWindowSeconds,
      defaultReward: req.defaultReward ?? MODEL_DEFAULTS.defaultReward,
      duplicateRule: req.duplicateRule ?? MODEL_DEFAULTS.duplicateRule,
      logRewards: req.logRewards ?? MODEL_DEFAULTS.logRewards,
      probabilitySamples: req.probabilitySamples ?? MODEL_DEFAULTS.probabilitySamples,
    };
    const existing = await this.ctx.store.getModel(name);
    await this.ctx.store.durable(); // decide only from a committed row
    if (existing !== null && existing.policy !== id) {
      throw new ServiceError(
        409,
        'model_exists',
        `model '${name}' exists with policy '${existing.policy}'; got '${id}' (a model's policy cannot change).`,
      );
    }
    const seed =
      typeof req.options.seed === 'number'
        ? req.options.seed
        : ((existing?.options.seed as number | undefined) ?? createSecureSeed());
    // the accountant is stored explicitly, so that a later default never recalibrates a model; a
    // request for an existing model that names none means the model's own
    const given: Record<string, unknown> = { ...req.options, seed };
    const options =
      existing === null
        ? withStoredAccountant(id, given, true)
        : withStoredAccountant(id, { ...given, accountant: given.accountant ?? existing.options.accountant });
    let policy: ReturnType<typeof createPolicy>;
    try {
      policy = createPolicy(id, options as never);
    } catch (err) {
      throw new ServiceError(400, 'invalid_options', err instanceof Error ? err.message : String(err));
    }
    checkServedUnitOptions(id, policy.config, isReplicaStore(this.ctx.store));
    if (existing !== null) {
      this.compare(existing, id, policy.config, settings);
      return view(existing, false);
    }
    const r = await this.ctx.store.createModel({
      name,
      policy: id,
      options,
      settings,
      createdAt: this.ctx.now(),
      snapshot: JSON.stringify(policy.snapshot({ key: this.ctx.snapshotKey })),
    });
    await this.ctx.store.durable();
    if (!r.created) {
      // created concurrently: same comparison as above
      this.compare(r.model, id, policy.config, settings);
    }
    return view(r.model, r.created);
  }

  private compare(existing: ModelRow, id: PolicyId, config: object, settings: ModelSettings): void {
    const name = existing.name;
    if (existing.policy !== id) {
      throw new ServiceError(
        409,
        'model_exists',
        `model '${name}' exists with policy '${existing.policy}'; got '${id}' (a model's policy cannot change).`,
      );
    }
    const old = createPolicy(id, withStoredAccountant(id, existing.options) as never).config as Readonly<
      Record<string, unknown>
    >;
    const now = config as Readonly<Record<string, unknown>>;
    const keys = new Set([...Object.keys(old), ...Object.keys(now)]);
    for (const k of keys) {
      if (JSON.stringify(old[k]) !== JSON.stringify(now[k])) {
        const privacy = !NON_PRIVACY_OPTIONS.has(k);
        throw new ServiceError(
          409,
          privacy ? 'privacy_parameters_changed' : 'model_exists',
          `model '${name}' exists with ${k} = ${JSON.stringify(old[k])}; got ${JSON.stringify(now[k])} (${
            privacy
              ? 'privacy parameters of an existing model cannot change'
              : 'options of an existing model cannot change'
          }; create a new model).`,
        );
      }
    }
    for (const k of Object.keys(settings) as (keyof ModelSettings)[]) {
      if (JSON.stringify(existing.settings[k]) !== JSON.stringify(settings[k])) {
        throw new ServiceError(
          409,
          'model_exists',
          `model '${name}' exists with ${k} = ${JSON.stringify(existing.settings[k])}; got ${JSON.stringify(settings[k])} (create a new model).`,
        );
      }
    }
  }
}
