/**
 * One model served by one of several replicas that share a database (PostgreSQL; docs/serving.md,
 * "Several replicas"). Same surface as {@link ModelRuntime}; the difference is where the state is.
 *
 * - **Decision view.** The replica decides from a policy restored from the last released snapshot it
 *   has seen (version v), never from an unreleased reward. It picks up a newer release when a
 *   notification (LISTEN/NOTIFY) arrives and, to bound the staleness when a notification is lost, by
 *   a cheap version check before a request when the last check is older than `versionCheckMs`.
 *   Staleness: the public matrix A lags by the rewards pending since the last release (< one batch),
 *   the released statistics by at most `versionCheckMs` plus one snapshot read.
 * - **Rewards** are stored as pending in a plain transaction (durable when acknowledged). When at
 *   least a batch is pending, the replica calls `releaseBatch`: under the model row lock it restores
 *   the last released snapshot, replays exactly the oldest batch through the policy, checks that
 *   this made exactly one release (none for non-private policies, whose batch is 1), and commits the
 *   new snapshot, the ledger row and the deletion of those raw rewards together. A replica that
 *   finds the batch gone (another one released it) writes nothing and refreshes its view.
 * - A computed release is installed as the view only after its COMMIT returned; when the outcome is
 *   unknown (an error), it is dropped and the view is reloaded from the database.
 *
 * Every request runs concurrently with the others (the database serialises what must be); releases
 * of one model by one replica run one at a time.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Policy, PolicyId } from '../policies/index.js';
import { createPolicy, policyInfo } from '../policies/index.js';
import type { ModelRow, ModelState, ReleaseInput, ReplicaStore } from '../store/index.js';
import type {
  LedgerResponse,
  ModelStatus,
  PrivacyView,
  RankRequest,
  RankResponse,
  RewardResponse,
} from './apiTypes.js';
import { clipToUnit } from './clipToUnit.js';
import type { RuntimeContext } from './ModelRuntime.js';
import { decide, observe } from './policyDriver.js';
import { rankFeatures } from './rankFeatures.js';
import { replicaBatchSize } from './replicaBatchSize.js';
import type { ServedModel } from './ServedModel.js';
import { ServiceError } from './ServiceError.js';

/** Most expired decisions given their default reward in one sweep. */
const SWEEP_LIMIT = 1000;

/** Options of the replica runtime. */
export interface ReplicaOptions {
  /**
   * Milliseconds after which a request first checks the stored version (a notification may have
   * been lost); default 100. 0: check before every request.
   */
  readonly versionCheckMs: number;
}

/** The 400 answer for a policy that replicas cannot serve. */
export function notReplicable(id: string): ServiceError {
  return new ServiceError(
    400,
    'policy_not_supported_on_replicas',
    `policy '${id}' cannot be served from a shared PostgreSQL database: its releases are not one per fixed batch of rewards (supported there: adaprivate-ts, adaprivate-ucb, adaprivate-ts-amp, adaprivate-ts-adaptive, linucb, lints; use SQLite for the others).`,
  );
}

export class ReplicaRuntime implements ServedModel {
  readonly row: ModelRow;
  private readonly ctx: RuntimeContext;
  private readonly store: ReplicaStore;
  private readonly options: ReplicaOptions;
  private readonly id: PolicyId;
  private readonly isPrivate: boolean;
  private readonly batch: number;
  private readonly dim: number;
  private view: Policy;
  private version: number;
  private lastCheck: number;
  /** Highest version announced by a notification (a view below it is behind). */
  private announced = 0;
  private reloading: Promise<void> | null = null;
  private releases: Promise<unknown> = Promise.resolve();
  private lastSweep = Number.NEGATIVE_INFINITY;
  /** Feature vectors clipped in this replica's decisions since it started. */
  private clipped = 0;

  private constructor(
    row: ModelRow,
    view: Policy,
    version: number,
    batch: number,
    store: ReplicaStore,
    ctx: RuntimeContext,
    options: ReplicaOptions,
  ) {
    this.row = row;
    this.view = view;
    this.version = version;
    this.batch = batch;
    this.store = store;
    this.ctx = ctx;
    this.options = options;
    this.id = row.policy as PolicyId;
    this.isPrivate = policyInfo(this.id).isPrivate;
    this.dim = view.config.dim as number;
    this.lastCheck = performance.now();
  }

  /**
   * The replica runtime of model `name` (null when it does not exist), deciding from its last
   * released snapshot; a full batch left pending (a replica died before releasing it) is released.
   */
  static async load(
    name: string,
    ctx: RuntimeContext,
    store: ReplicaStore,
    options: ReplicaOptions,
  ): Promise<ReplicaRuntime | null> {
    const row = await store.getModel(name);
    if (row === null) return null;
    const state = await store.releasedState(name);
    if (state === null) return null;
    const id = row.policy as PolicyId;
    const view: Policy = createPolicy(id, row.options as never);
    const batch = replicaBatchSize(id, view.config as Readonly<Record<string, unknown>>);
    if (batch === null) throw notReplicable(id);
    view.restore(JSON.parse(state.snapshot));
    const rt = new ReplicaRuntime(
      { ...row, version: state.version },
      view,
      state.version,
      batch,
      store,
      ctx,
      options,
    );
    await rt.releaseDue();
    return rt;
  }

  get stale(): boolean {
    return false; // the view refreshes itself from the database
  }

  /** Records that release `version` was committed (a notification); the view reloads. */
  notify(version: number): void {
    if (version > this.announced) this.announced = version;
    if (version <= this.version) return;
    this.refresh().catch(() => {
      // the next request retries (lastCheck is reset on failure)
    });
  }

  /** Brings the view to the stored version when a release was announced or the last check is old. */
  private async fresh(force = false): Promise<void> {
    if (
      !force &&
      this.announced <= this.version &&
      performance.now() - this.lastCheck < this.options.versionCheckMs
    )
      return;
    await this.refresh();
  }

  /** Reloads the view from the last committed release when it is newer (one reload at a time). */
  private refresh(): Promise<void> {
    if (this.reloading !== null) return this.reloading;
    const run = (async () => {
      const started = performance.now();
      try {
        const v = await this.store.modelVersion(this.row.name);
        if (v !== null && v > this.version) {
          const state = await this.store.releasedState(this.row.name);
          if (state !== null && state.version > this.version) this.install(state.snapshot, state.version);
        }
        this.lastCheck = started;
      } catch (err) {
        this.lastCheck = Number.NEGATIVE_INFINITY;
        throw err;
      } finally {
        this.reloading = null;
      }
    })();
    this.reloading = run;
    return run;
  }

  private install(snapshot: string, version: number): void {
    const p: Policy = createPolicy(this.id, this.row.options as never);
    p.restore(JSON.parse(snapshot));
    this.view = p;
    this.version = version;
  }

  /** Decides from the view and stores the decision before answering. */
  async rank(req: RankRequest): Promise<RankResponse> {
    const d = this.dim;
    const k = req.arms.length;
    const feats = rankFeatures(req, d, this.row.name);
    await this.fresh();
    const view = this.view;
    const version = this.version;
    const clippedBefore = view.clippedCount;
    const dec = decide(view, feats, k, this.row.settings.probabilitySamples);
    this.clipped += view.clippedCount - clippedBefore;
    const chosenFeatures = new Float64Array(d);
    clipToUnit(feats, dec.arm * d, d, chosenFeatures);
    const eventId = req.eventId ?? randomUUID();
    const probabilities = Array.from(dec.probabilities);
    const ok = await this.store.insertDecision({
      model: this.row.name,
      eventId,
      seq: 0,
      time: this.ctx.now(),
      armIds: req.arms.map((a) => a.id),
      features: feats,
      dim: d,
      chosen: dec.arm,
      chosenFeatures,
      probabilities,
      modelVersion: version,
      rewardState: 'none',
      reward: null,
      rewardSource: null,
      release: null,
    });
    if (!ok) {
      throw new ServiceError(
        409,
        'event_exists',
        `eventId '${eventId}' already has a decision in model '${this.row.name}' (event ids are unique per model).`,
      );
    }
    this.ctx.metrics.decisions.inc({ model: this.row.name });
    return {
      eventId,
      chosen: dec.arm,
      chosenId: req.arms[dec.arm]!.id,
      probabilities,
      probabilitySamples: dec.samples,
      modelVersion: version,
    };
  }

  /** Stores the reward of `eventId` as pending (durable before this resolves); releases a full batch. */
  async reward(eventId: string, reward: number): Promise<RewardResponse> {
    await this.sweep();
    const name = this.row.name;
    const d = await this.store.getDecision(name, eventId);
    if (d === null)
      throw this.refused(
        'unknown_event',
        404,
        'event_not_found',
        `eventId '${eventId}' has no decision in model '${name}'.`,
      );
    const window = this.row.settings.rewardWindowSeconds;
    if (this.ctx.now() > d.time + window * 1000) {
      throw this.refused(
        'window_closed',
        410,
        'reward_window_closed',
        `the reward window of eventId '${eventId}' (${window} s after its decision) has closed; the reward was not recorded.`,
      );
    }
    const outcome =
      d.rewardState === 'none' ? await this.record(eventId, reward, 'given') : ('duplicate' as const);
    if (outcome === 'duplicate') {
      throw this.refused(
        'duplicate',
        409,
        'duplicate_reward',
        `eventId '${eventId}' already has a reward (duplicate rule: first wins); this one was not recorded.`,
      );
    }
    if (outcome === 'unknown-event') {
      throw this.refused(
        'unknown_event',
        404,
        'event_not_found',
        `eventId '${eventId}' has no decision in model '${name}'.`,
      );
    }
    this.ctx.metrics.rewards.inc({ model: name, outcome: 'recorded' });
    // The reward is durable and pending: it is acknowledged even when the release fails (a lost
    // connection, a conflict); the batch stays pending and the next reward or restart releases it.
    const released = await this.releaseDue().catch(() => {
      this.ctx.metrics.rewards.inc({ model: name, outcome: 'release_failed' });
      return false;
    });
    return { eventId, status: 'recorded', released, modelVersion: this.version };
  }

  private refused(outcome: string, status: number, code: string, message: string): ServiceError {
    this.ctx.metrics.rewards.inc({ model: this.row.name, outcome });
    return new ServiceError(status, code, message);
  }

  private record(eventId: string, reward: number, source: 'given' | 'default') {
    return this.store.recordReward(
      {
        model: this.row.name,
        eventId,
        reward,
        time: this.ctx.now(),
        source,
        logReward: this.row.settings.logRewards,
      },
      null,
    );
  }

  /** Gives the default reward to decisions whose window has closed (another replica may have). */
  async sweep(): Promise<void> {
    const def = this.row.settings.defaultReward;
    if (def === null) return;
    const now = this.ctx.now();
    if (now - this.lastSweep < this.ctx.sweepIntervalMs) return;
    this.lastSweep = now;
    const cutoff = now - this.row.settings.rewardWindowSeconds * 1000;
    const rows = await this.store.expiredDecisions(this.row.name, cutoff, SWEEP_LIMIT);
    let recorded = 0;
    for (const r of rows) {
      if ((await this.record(r.eventId, def, 'default')) !== 'recorded') continue; // another replica
      recorded++;
      this.ctx.metrics.rewards.inc({ model: this.row.name, outcome: 'default' });
    }
    if (recorded > 0) await this.releaseDue();
  }

  /**
   * Releases every full batch pending (one release of this model at a time in this replica). True
   * when this call committed at least one release.
   */
  releaseDue(): Promise<boolean> {
    const run = this.releases.then(async () => {
      let released = false;
      while ((await this.store.pendingCount(this.row.name)) >= this.batch) {
        if (await this.releaseOne()) released = true;
      }
      return released;
    });
    this.releases = run.catch(() => undefined);
    return run;
  }

  /** One `releaseBatch`; installs the computed release as the view only once it has committed. */
  private async releaseOne(): Promise<boolean> {
    let computed: Policy | null = null;
    const compute = (state: ModelState): ReleaseInput => {
      const p: Policy = createPolicy(this.id, this.row.options as never);
      p.restore(JSON.parse(state.snapshot));
      const before = p.privacy().releases;
      for (const r of state.pending) observe(p, r.features, r.reward);
      const spent = p.privacy();
      const made = spent.releases - before;
      const expected = this.isPrivate ? 1 : 0;
      if (made !== expected) {
        throw new Error(
          `model '${this.row.name}': replaying a batch of ${state.pending.length} rewards made ${made} releases, expected ${expected}; nothing was committed.`,
        );
      }
      computed = p;
      return {
        version: state.version + 1,
        snapshot: JSON.stringify(p.snapshot()),
        spent: { ...spent },
        releases: made,
        rounds: state.rounds + state.pending.length,
      };
    };
    let row: Awaited<ReturnType<ReplicaStore['releaseBatch']>>;
    try {
      row = await this.store.releaseBatch(this.row.name, this.batch, this.ctx.now(), compute);
    } catch (err) {
      // outcome unknown: never decide from the computed release; reload what the database has
      this.lastCheck = Number.NEGATIVE_INFINITY;
      throw err;
    }
    const p = computed as Policy | null;
    if (row === null || p === null) {
      await this.refresh(); // another replica released this batch
      return false;
    }
    if (row.version > this.version) {
      this.view = p;
      this.version = row.version;
    }
    this.ctx.metrics.releases.inc({ model: this.row.name });
    return true;
  }

  private privacyView(): PrivacyView {
    const s = this.view.privacy();
    return {
      epsilon: s.epsilon,
      delta: s.delta,
      rho: s.rho,
      releases: s.releases,
      composition: s.composition,
      conversion: s.conversion,
      noise: s.noise ?? 'none',
    };
  }

  /** The model's status from the shared database: every replica reports the same guarantee. */
  async status(): Promise<ModelStatus> {
    await this.fresh(true);
    const c = await this.store.counts(this.row.name);
    const cfg = this.view.config as Readonly<Record<string, unknown>>;
    const horizon = cfg.horizon as number;
    const note = this.isPrivate
      ? 'each reward enters one release (parallel composition): the guarantee does not grow with more rounds.'
      : 'non-private policy: no privacy guarantee.';
    return {
      name: this.row.name,
      policy: this.row.policy,
      options: this.row.options,
      settings: this.row.settings,
      createdAt: new Date(this.row.createdAt).toISOString(),
      modelVersion: this.version,
      rounds: c.releasedRewards + c.pendingRewards,
      decisions: c.decisions,
      pendingRewards: c.pendingRewards,
      releasedRewards: c.releasedRewards,
      defaultRewards: c.defaultRewards,
      batchesReleased: this.version,
      privacy: this.privacyView(),
      budget: {
        boundedByHorizon: false,
        horizon,
        roundsLeft: null,
        target: this.isPrivate
          ? {
              epsilon: typeof cfg.epsilon === 'number' ? cfg.epsilon : null,
              delta: typeof cfg.delta === 'number' ? cfg.delta : null,
            }
          : null,
        learning: true,
        note,
      },
      clippedFeatures: this.clipped,
    };
  }

  /** The releases committed so far by any replica, with the guarantee of the last one. */
  async ledger(): Promise<LedgerResponse> {
    await this.fresh(true);
    const rows = await this.store.ledger(this.row.name);
    return {
      name: this.row.name,
      releases: rows.map((r) => ({
        version: r.version,
        time: new Date(r.time).toISOString(),
        rewards: r.rewards,
        releases: r.releases,
        rounds: r.rounds,
        spent: r.spent,
      })),
      privacy: this.privacyView(),
    };
  }
}
