/**
 * The models of one server: created through the store (first wins), loaded into memory on first use,
 * reloaded from the database when a failed write left the in-memory state unconfirmed. On a store
 * that replicas share (PostgreSQL) each model is a {@link ReplicaRuntime}, refreshed by release
 * notifications; otherwise a {@link ModelRuntime}.
 */

import {
  createPolicy,
  type PolicyId,
  type PolicySpec,
  PRIVACY_NEUTRAL_OPTIONS,
  parsePolicyId,
  parsePolicySpec,
  withStoredAccountant,
} from '../policies/index.js';
import { createSecureSeed } from '../random/index.js';
import type { ModelRow, ModelSettings, TombstoneRow } from '../store/index.js';
import { ModelDeletedError } from '../store/ModelDeletedError.js';
import { DELETED_VERSION, isReplicaStore } from '../store/ReplicaStore.js';
import { SqliteStore } from '../store/SqliteStore.js';
import type {
  CreateModelEnvelope,
  CreateModelResponse,
  DeleteModelResponse,
  LedgerResponse,
} from './contract.js';
import { ModelRuntime, type RuntimeContext } from './ModelRuntime.js';
import { ledgerResponse } from './modelViews.js';
import { type ReplicaOptions, ReplicaRuntime } from './ReplicaRuntime.js';
import { restoreServed } from './restoreServed.js';
import type { ServedModel } from './ServedModel.js';
import { ServiceError } from './ServiceError.js';
import { checkServedUnitOptions } from './unitModel.js';

/** Defaults of the model settings (docs/serving.md). */
export const MODEL_DEFAULTS = {
  rewardWindowSeconds: 3600,
  defaultReward: null,
  duplicateRule: 'first',
  logRewards: false,
  logCandidates: true,
  probabilitySamples: null,
  retainDecisionsDays: null,
} as const;

function notFound(name: string): ServiceError {
  return new ServiceError(
    404,
    'model_not_found',
    `model '${name}' does not exist (create it with PUT /v1/models/${name}).`,
  );
}

/** A request to a deleted model (its tombstone keeps the ledger: GET /v1/models/{name}/ledger). */
function deletedError(t: TombstoneRow): ServiceError {
  return new ServiceError(
    410,
    'model_deleted',
    `model '${t.name}' was deleted at ${new Date(t.deletedAt).toISOString()}; its ledger is kept (GET /v1/models/${t.name}/ledger).`,
  );
}

/** PUT of a name whose tombstone keeps a ledger: refused, so that no budget restarts from zero. */
function recreateRefused(name: string): ServiceError {
  const e = ModelDeletedError.tombstoned(name);
  return new ServiceError(409, 'model_deleted', e.message);
}

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
            // another replica deleted the model: the next request finds it gone
            if (version === DELETED_VERSION) {
              this.loaded.delete(model);
              return;
            }
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
      const t = await this.ctx.store.tombstone(name);
      if (t !== null) throw deletedError(t);
      throw notFound(name);
    }
    return rt;
  }

  /**
   * Deletes model `name` (docs/serving.md, "Deleting a model"): a tombstone that keeps the ledger,
   * or, with `purge` and `confirm` equal to the name, a purge that removes the ledger too. The model
   * stops serving at once (on replicas: at the release notification, or at the next version check).
   */
  async delete(name: string, purge: boolean, confirm: string | undefined): Promise<DeleteModelResponse> {
    if (purge && confirm !== name) {
      throw new ServiceError(
        400,
        'purge_not_confirmed',
        `purging model '${name}' removes its ledger, the only record of the privacy budget it spent: confirm with confirm=${name} (got ${confirm === undefined ? 'none' : JSON.stringify(confirm)}).`,
      );
    }
    const store = this.ctx.store;
    const time = this.ctx.now();
    const r = await store.deleteModel(name, { time, purge });
    await store.durable();
    this.loaded.delete(name);
    // the erased raw rewards and features have left the database and WAL files when this answers
    if (store instanceof SqliteStore) await store.scrubbed();
    if (r.outcome === 'not-found') throw notFound(name);
    const t = r.outcome === 'purged' ? null : await store.tombstone(name);
    return {
      name,
      outcome: r.outcome,
      ledgerKept: r.outcome !== 'purged',
      deletedAt: t === null ? null : new Date(t.deletedAt).toISOString(),
      erased: {
        decisions: r.decisions,
        pendingRewards: r.pendingRewards,
        unitCounts: r.unitCounts,
        ledgerRows: r.ledgerRows,
      },
    };
  }

  /** The ledger of model `name`, served or deleted (a tombstone's ledger carries `deletedAt`). */
  async ledger(name: string): Promise<LedgerResponse> {
    let rt: ServedModel;
    try {
      rt = await this.get(name);
    } catch (err) {
      const t =
        err instanceof ServiceError && err.code === 'model_deleted'
          ? await this.ctx.store.tombstone(name)
          : null;
      if (t === null) throw err;
      return this.tombstoneLedger(t);
    }
    try {
      return await rt.ledger();
    } catch (err) {
      // deleted while the ledger was read
      const t = err instanceof ModelDeletedError ? await this.ctx.store.tombstone(name) : null;
      if (t === null) throw err;
      return this.tombstoneLedger(t);
    }
  }

  /** A tombstone's ledger: its rows, and the guarantee of its last released snapshot. */
  private async tombstoneLedger(t: TombstoneRow): Promise<LedgerResponse> {
    const id = t.policy as PolicyId;
    const policy = restoreServed(t.name, id, t.options, t.snapshot, this.ctx.snapshotKey);
    const unit = (policy.privacy().unit ?? 'event') === 'user';
    const totals = unit ? await this.ctx.store.unitTotals(t.name) : null;
    const view = ledgerResponse(t, await this.ctx.store.ledger(t.name), policy, totals);
    return { ...view, deletedAt: new Date(t.deletedAt).toISOString() };
  }

  /**
   * Removes the decisions of every model older than its retention (docs/serving.md, "Retention"):
   * the model's `retainDecisionsDays` setting, else `serverRetainMs` (null: the server keeps
   * decisions; such a model is skipped). Removed are those whose reward is settled (released or
   * dropped), and those that can no longer get one (past the reward window; with a default reward,
   * a further retention past it). Never a decision whose raw reward waits for its release. Returns
   * the count removed per model (models with none omitted).
   */
  async expireDecisions(serverRetainMs: number | null): Promise<Record<string, number>> {
    const now = this.ctx.now();
    const out: Record<string, number> = {};
    for (const m of await this.ctx.store.listModels()) {
      const days = m.settings.retainDecisionsDays;
      const retainMs = days === null ? serverRetainMs : days * 86_400_000;
      if (retainMs === null) continue;
      const before = now - retainMs;
      const windowEnd = now - m.settings.rewardWindowSeconds * 1000;
      const openBefore =
        m.settings.defaultReward === null
          ? Math.min(before, windowEnd)
          : Math.min(before, windowEnd - retainMs);
      const n = await this.ctx.store.expireDecisions(m.name, { before, openBefore });
      if (n > 0) out[m.name] = n;
    }
    await this.ctx.store.durable();
    return out;
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
  async create(name: string, req: CreateModelEnvelope): Promise<CreateModelResponse> {
    let id: PolicyId;
    try {
      id = parsePolicyId(req.policy, 'policy');
    } catch {
      throw new ServiceError(
        400,
        'unknown_policy',
        `policy '${req.policy}' is not a policy id (see GET /openapi.json).`,
      );
    }
    if ('noiseSeed' in req.options) {
      throw new ServiceError(
        400,
        'noise_seed_refused',
        'options.noiseSeed is refused: the server draws privacy noise from a secure source only.',
      );
    }
    const givenSettings = {
      rewardWindowSeconds: req.rewardWindowSeconds ?? MODEL_DEFAULTS.rewardWindowSeconds,
      defaultReward: req.defaultReward ?? MODEL_DEFAULTS.defaultReward,
      duplicateRule: req.duplicateRule ?? MODEL_DEFAULTS.duplicateRule,
      logRewards: req.logRewards ?? MODEL_DEFAULTS.logRewards,
      logCandidates: req.logCandidates ?? MODEL_DEFAULTS.logCandidates,
      retainDecisionsDays: req.retainDecisionsDays ?? MODEL_DEFAULTS.retainDecisionsDays,
    };
    const existing = await this.ctx.store.getModel(name);
    await this.ctx.store.durable(); // decide only from a committed row
    const settings: ModelSettings = {
      ...givenSettings,
      // not given: the existing model's (a model stored with the earlier default of 200 keeps it)
      probabilitySamples:
        req.probabilitySamples !== undefined
          ? req.probabilitySamples
          : (existing?.settings.probabilitySamples ?? MODEL_DEFAULTS.probabilitySamples),
    };
    if (existing === null) {
      const t = await this.ctx.store.tombstone(name);
      if (t !== null) throw recreateRefused(name);
    }
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
        : typeof existing?.options.seed === 'number'
          ? existing.options.seed
          : createSecureSeed();
    // the accountant is stored explicitly, so that a later default never recalibrates a model; a
    // request for an existing model that names none means the model's own
    const given: { readonly [option: string]: unknown } = { ...req.options, seed };
    const options =
      existing === null
        ? withStoredAccountant(id, given, true)
        : withStoredAccountant(id, { ...given, accountant: given.accountant ?? existing.options.accountant });
    let policy: ReturnType<typeof createPolicy>;
    try {
      const spec = parsePolicySpec(id, options, 'options');
      policy = createPolicy(spec.id, spec.options);
    } catch (err) {
      throw new ServiceError(400, 'invalid_options', err instanceof Error ? err.message : String(err));
    }
    checkServedUnitOptions(id, policy.config, isReplicaStore(this.ctx.store));
    if (existing !== null) {
      this.compare(existing, id, policy.config, settings);
      return view(existing, false);
    }
    let r: Awaited<ReturnType<typeof this.ctx.store.createModel>>;
    try {
      r = await this.ctx.store.createModel({
        name,
        policy: id,
        options,
        settings,
        createdAt: this.ctx.now(),
        snapshot: JSON.stringify(policy.snapshot({ key: this.ctx.snapshotKey })),
      });
    } catch (err) {
      // deleted by another replica between the check above and the insert
      if (err instanceof ModelDeletedError) throw recreateRefused(name);
      throw err;
    }
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
    const stored: PolicySpec = parsePolicySpec(
      id,
      withStoredAccountant(id, existing.options),
      `model row '${name}'`,
    );
    const old: object = createPolicy(stored.id, stored.options).config;
    const now: object = config;
    const keys = new Set([...Object.keys(old), ...Object.keys(now)]);
    for (const k of keys) {
      const was: unknown = Reflect.get(old, k);
      const is: unknown = Reflect.get(now, k);
      if (JSON.stringify(was) !== JSON.stringify(is)) {
        const privacy = !PRIVACY_NEUTRAL_OPTIONS.has(k);
        throw new ServiceError(
          409,
          privacy ? 'privacy_parameters_changed' : 'model_exists',
          `model '${name}' exists with ${k} = ${JSON.stringify(was)}; got ${JSON.stringify(is)} (${
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
