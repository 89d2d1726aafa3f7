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
 *   least a release unit is pending (replicaReleaseUnit.ts), the replica calls `releaseBatch`: under
 *   the model row lock it restores the last released snapshot, replays exactly the oldest unit
 *   through the policy, and commits the new snapshot, the ledger row and the deletion of those raw
 *   rewards together. A batched private policy must make exactly one release per batch (none for a
 *   non-private policy, whose unit is 1); a policy with **serialised learning** (JDP-LinUCB,
 *   zCDP-Episodic, DGS-LinUCB, AdaC-OFUL-zCDP, RarelySwitching-zCDP) takes one reward per step and
 *   its ledger row records what the policy itself released in that step (0, 1 or more). So the
 *   model version counts steps, not only privacy releases. A replica that finds the unit gone
 *   (another one released it) writes nothing and refreshes its view.
 * - **Decisions that release** (DGS-LinUCB: a select after new data releases a noisy estimate) are
 *   serialised too (`decideSerialised`): under the model row lock, from the latest step, committed
 *   with the release they made. No replica ever selects from its view for such a policy.
 * - **Horizon-bounded policies** (JDP-LinUCB, zCDP-Episodic, DGS-LinUCB) count learned rounds in the
 *   shared database: the reward that would exceed the horizon is refused there (409
 *   horizon_exhausted), atomically across replicas; afterwards decisions come from `decideFrozen`.
 * - **User-level models** (privacyUnit 'user', batched policies): each reward is admitted or dropped
 *   by the one contribution-bound rule inside its store transaction, under the model row lock
 *   (`recordUnitPending`), so replicas together never let a unit pass its bounds; a release replays
 *   exactly one closed group of admitted rewards (`releaseUnitGroup`: `batchSize` of them, or fewer
 *   when an epoch change closed it), so a release never spans an epoch boundary.
 * - Every policy here is restored with `restoreFromStore`: a fresh policy from the database's latest
 *   snapshot, whose lineage the database (not the process) serialises.
 * - A computed release is installed as the view only after its COMMIT returned; when the outcome is
 *   unknown (an error), it is dropped and the view is reloaded from the database.
 *
 * Every request runs concurrently with the others (the database serialises what must be); releases
 * of one model by one replica run one at a time.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Policy, PolicyId } from '../policies/index.js';
import { policyInfo } from '../policies/index.js';
import type {
  DecisionRow,
  ModelRow,
  ModelState,
  ReleaseInput,
  ReplicaStore,
  RewardInput,
  UnitGroup,
  UnitPendingOutcome,
} from '../store/index.js';
import type { LedgerResponse, ModelStatus, RankRequest, RankResponse, RewardResponse } from './contract.js';
import { countClipped } from './countClipped.js';
import type { RuntimeContext } from './ModelRuntime.js';
import { ledgerResponse, modelStatus } from './modelViews.js';
import {
  boundedByHorizon,
  type DriverDecision,
  decide,
  decideFrozen,
  displaySamples,
  observe,
} from './policyDriver.js';
import { rankFeatures } from './rankFeatures.js';
import { replicaReleaseUnit } from './replicaReleaseUnit.js';
import { restoreServed } from './restoreServed.js';
import { admitReward, duplicateReward, eventNotFound, horizonExhausted } from './rewardAdmission.js';
import type { ServedModel } from './ServedModel.js';
import { ServiceError } from './ServiceError.js';
import { StoreUnitCounters } from './StoreUnitCounters.js';
import { storedPolicySpec } from './storedPolicySpec.js';
import { decisionRow, eventExists, rewardInput, stepRelease } from './storeInputs.js';
import { type ReplicaUnits, replicaUnits, rewardUnit } from './unitModel.js';

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

export class ReplicaRuntime implements ServedModel {
  readonly row: ModelRow;
  private readonly ctx: RuntimeContext;
  private readonly store: ReplicaStore;
  private readonly options: ReplicaOptions;
  private readonly id: PolicyId;
  private readonly isPrivate: boolean;
  /** Rewards per release transaction (replicaReleaseUnit.ts). */
  private readonly batch: number;
  /** Serialised learning: one reward per step, the ledger row records what the step released. */
  private readonly serialised: boolean;
  /** Decisions may release (DGS-LinUCB): they go through `decideSerialised`. */
  private readonly atSelect: boolean;
  /** The policy stops learning at `horizon` rounds, counted in the database. */
  private readonly bounded: boolean;
  private readonly horizon: number;
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
  /** privacyUnit 'user': the bounds and epochs (admission in the store, see `recordUnit`); null otherwise. */
  private readonly units: ReplicaUnits | null;

  private constructor(
    row: ModelRow,
    view: Policy,
    version: number,
    unit: { readonly unit: number; readonly serialised: boolean },
    store: ReplicaStore,
    ctx: RuntimeContext,
    options: ReplicaOptions,
  ) {
    this.row = row;
    this.units = replicaUnits(row);
    this.view = view;
    this.version = version;
    this.batch = unit.unit;
    this.serialised = unit.serialised;
    this.store = store;
    this.ctx = ctx;
    this.options = options;
    this.id = view.id;
    const info = policyInfo(this.id);
    this.isPrivate = info.isPrivate;
    this.atSelect = info.releasesAtSelect;
    this.bounded = boundedByHorizon(this.id);
    this.horizon = view.config.horizon;
    this.dim = view.config.dim;
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
    const spec = storedPolicySpec(row);
    const view: Policy = restoreServed(
      name,
      spec.id,
      spec.options,
      state.snapshot,
      ctx.snapshotKey,
      replayRuntime({ now: 0 }),
    );
    const unit = replicaReleaseUnit(spec.id, view.config);
    const rt = new ReplicaRuntime(
      { ...row, version: state.version },
      view,
      state.version,
      unit,
      store,
      ctx,
      options,
    );
    await rt.releaseDue();
    return rt;
  }

  /** Calls may overlap (each awaits the database on its own): a batch awaits them one by one. */
  readonly queuesInOrder = false;

  get stale(): boolean {
    // the view refreshes itself from the database; a model found deleted is loaded again (and gone)
    return this.deleted;
  }

  /** The version check found no model row (deleted by a replica whose notification was lost). */
  private deleted = false;

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
        if (v === null) this.deleted = true;
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

  /**
   * A fresh policy from a snapshot of the database (the database serialises its lineage). A
   * user-level policy reads the time `clock.now` and counts its units in memory, from zero: it only
   * ever replays rewards the store has already admitted under the bounds (nothing of the counts is
   * in its snapshot).
   */
  private fromStore(snapshot: string, clock: { now: number } = { now: 0 }): Policy {
    const spec = storedPolicySpec(this.row);
    return restoreServed(
      this.row.name,
      spec.id,
      spec.options,
      snapshot,
      this.ctx.snapshotKey,
      replayRuntime(clock),
    );
  }

  private install(snapshot: string, version: number): void {
    this.view = this.fromStore(snapshot);
    this.version = version;
  }

  /** True while a policy at `rounds` learned rounds may learn (bounded ones stop at the horizon). */
  private learnsAt(rounds: number): boolean {
    return !(this.bounded && rounds >= this.horizon);
  }

  /**
   * Decides with `p` (a round, or without one past the horizon); returns the decision and the
   * clipped candidate vectors it adds to the stored decisions.
   */
  private decideWith(
    p: Policy,
    feats: Float64Array,
    k: number,
    samples: number | null,
  ): { dec: DriverDecision; clipped: number } {
    if (!this.learnsAt(p.roundsLearned)) {
      return { dec: decideFrozen(p, feats, k, samples), clipped: countClipped(feats, k, this.dim) };
    }
    const before = p.clippedCount;
    const dec = decide(p, feats, k, samples);
    return { dec, clipped: p.clippedCount - before };
  }

  /** Decides from the view (or, for a policy whose select releases, serialised) and stores the decision before answering. */
  async rank(req: RankRequest): Promise<RankResponse> {
    const k = req.arms.length;
    const feats = rankFeatures(req, this.dim, this.row.name);
    if (this.units !== null && req.unit === undefined) {
      throw new ServiceError(
        400,
        'unit_required',
        `model '${this.row.name}' protects users (privacyUnit 'user'): each rank must name its unit (the user or device id whose rewards are bounded and protected together).`,
      );
    }
    const eventId = req.eventId ?? randomUUID();
    let row: DecisionRow;
    let samples: number;
    if (this.atSelect) {
      const r = await this.rankSerialised(req, eventId, feats, k);
      row = r.row;
      samples = r.samples;
    } else {
      await this.fresh();
      const { dec, clipped } = this.decideWith(
        this.view,
        feats,
        k,
        displaySamples(this.row.settings, req.withProbabilities),
      );
      row = decisionRow(this.row, req, eventId, feats, this.dim, dec, this.version, this.ctx.now());
      samples = dec.samples;
      if (!(await this.store.insertDecision(row))) throw eventExists(this.row, eventId);
      this.clipped += clipped;
    }
    this.ctx.metrics.decisions.inc({ model: this.row.name });
    return {
      eventId,
      chosen: row.chosen,
      chosenId: req.arms[row.chosen]!.id,
      ...(row.probabilities === null
        ? {}
        : { probabilities: [...row.probabilities], probabilitySamples: samples }),
      modelVersion: row.modelVersion,
    };
  }

  /**
   * A decision of a policy whose select releases (DGS-LinUCB), serialised with its learning: under
   * the model row lock, a fresh policy from the latest step decides; when that released, the new
   * snapshot and its ledger row commit with the decision (version + 1), and become the view.
   */
  private async rankSerialised(
    req: RankRequest,
    eventId: string,
    feats: Float64Array,
    k: number,
  ): Promise<{ row: DecisionRow; samples: number }> {
    let computed: Policy | null = null;
    let row: DecisionRow | null = null;
    let samples = 0;
    let clipped = 0;
    let out: Awaited<ReturnType<ReplicaStore['decideSerialised']>>;
    try {
      out = await this.store.decideSerialised(this.row.name, this.ctx.now(), (state) => {
        const p = this.fromStore(state.snapshot);
        const before = p.privacy().releases;
        const r = this.decideWith(p, feats, k, displaySamples(this.row.settings, req.withProbabilities));
        const made = p.privacy().releases > before;
        const version = made ? state.version + 1 : state.version;
        row = decisionRow(this.row, req, eventId, feats, this.dim, r.dec, version, this.ctx.now());
        samples = r.dec.samples;
        clipped = r.clipped;
        if (made) computed = p;
        return {
          decision: row,
          release: made ? stepRelease(p, before, version, state.rounds, this.ctx.snapshotKey) : null,
        };
      });
    } catch (err) {
      // outcome unknown: never decide from the computed release; reload what the database has
      this.lastCheck = Number.NEGATIVE_INFINITY;
      throw err;
    }
    if (out === null) {
      throw new ServiceError(404, 'model_not_found', `model '${this.row.name}' does not exist.`);
    }
    if (!out.inserted || row === null) throw eventExists(this.row, eventId);
    this.clipped += clipped;
    const p = computed as Policy | null;
    if (out.release !== null && p !== null) {
      if (out.release.version > this.version) {
        this.view = p;
        this.version = out.release.version;
      }
      this.ctx.metrics.releases.inc({ model: this.row.name });
    }
    return { row, samples };
  }

  /**
   * Stores the reward of `eventId` as pending (durable before this resolves); releases a full batch.
   * `unit` is logged with the event; a user-level model admits the reward under its unit's
   * contribution bounds in the database (`dropped` says which bound refused it: acknowledged and
   * counted, never learned).
   */
  async reward(eventId: string, reward: number, unit?: string): Promise<RewardResponse> {
    await this.sweep();
    const name = this.row.name;
    const d = admitReward(this.row, eventId, await this.store.rewardTarget(name, eventId), this.ctx.now());
    const named = rewardUnit(this.row, eventId, d.unit ?? null, unit, this.units !== null);
    if (this.units !== null && named !== null) {
      const r = await this.recordUnit(this.units, eventId, reward, 'given', named);
      if (r.outcome === 'duplicate') throw duplicateReward(eventId);
      if (r.outcome === 'unknown-event') throw eventNotFound(name, eventId);
      const released =
        r.due > 0
          ? await this.releaseDue().catch(() => {
              this.ctx.metrics.releaseFailures.inc({ model: name });
              return false;
            })
          : false;
      return {
        eventId,
        status: 'recorded',
        released,
        modelVersion: this.version,
        ...(r.dropped !== null ? { dropped: r.dropped } : {}),
      };
    }
    // rules 1, 3 and 4 again at the write: another replica may have recorded it or the last round
    const r = await this.record(eventId, reward, 'given', named);
    if (r.outcome === 'duplicate') throw duplicateReward(eventId);
    if (r.outcome === 'unknown-event') throw eventNotFound(name, eventId);
    if (r.outcome === 'horizon-exhausted') throw horizonExhausted(name, this.horizon);
    // The reward is durable and pending: it is acknowledged even when the release fails (a lost
    // connection, a conflict); the batch stays pending and the next reward or restart releases it.
    if (r.pending < this.batch)
      return { eventId, status: 'recorded', released: false, modelVersion: this.version };
    const released = await this.releaseDue().catch(() => {
      this.ctx.metrics.releaseFailures.inc({ model: name });
      return false;
    });
    return { eventId, status: 'recorded', released, modelVersion: this.version };
  }

  /** A reward of a user-level model: admitted or dropped by the bounds in one store transaction. */
  private recordUnit(
    units: ReplicaUnits,
    eventId: string,
    reward: number,
    source: 'given' | 'default',
    unit: string,
  ): Promise<UnitPendingOutcome> {
    const now = this.ctx.now();
    const input: RewardInput & { readonly unit: string } = {
      ...rewardInput(this.row, eventId, reward, now, source),
      unit,
    };
    return this.store.recordUnitPending(input, units.epochAt(now), this.batch, units.admit);
  }

  private record(eventId: string, reward: number, source: 'given' | 'default', unit: string | null = null) {
    return this.store.recordPending(
      {
        ...rewardInput(this.row, eventId, reward, this.ctx.now(), source),
        ...(unit !== null ? { unit } : {}),
      },
      this.bounded ? this.horizon : null,
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
      if (this.units !== null) {
        if (r.unit == null) continue; // never learned without a unit (ranks need one)
        const u = await this.recordUnit(this.units, r.eventId, def, 'default', r.unit);
        if (u.outcome === 'recorded') recorded++;
        continue;
      }
      const outcome = (await this.record(r.eventId, def, 'default')).outcome;
      if (outcome === 'horizon-exhausted') break;
      if (outcome !== 'recorded') continue; // another replica
      recorded++;
    }
    if (recorded > 0) await this.releaseDue();
  }

  /**
   * Releases every full unit pending (one release of this model at a time in this replica). True
   * when this call committed at least one release: a batch (a step of a non-private policy), or, with
   * serialised learning, a step in which the policy released.
   */
  releaseDue(): Promise<boolean> {
    const run = this.releases.then(async () => {
      let released = false;
      if (this.units !== null) {
        while ((await this.store.unitGroupsDue(this.row.name)) > 0) {
          if ((await this.releaseGroup()) !== null) released = true;
        }
        return released;
      }
      while ((await this.store.pendingCount(this.row.name)) >= this.batch) {
        const made = await this.releaseOne();
        if (made !== null && (!this.serialised || made > 0)) released = true;
      }
      return released;
    });
    this.releases = run.catch(() => undefined);
    return run;
  }

  /**
   * One `releaseBatch`; installs the computed release as the view only once it has committed.
   * Returns the privacy releases the committed step made, or null when this replica committed none.
   */
  private async releaseOne(): Promise<number | null> {
    let computed: Policy | null = null;
    const compute = (state: ModelState): ReleaseInput => {
      const p = this.fromStore(state.snapshot);
      const before = p.privacy().releases;
      for (const r of state.pending) observe(p, r.features, r.reward);
      // the ledger row records exactly what the policy made: for a batched policy that is one
      // release per batch (none when non-private), checked; with serialised learning, whatever the
      // policy itself released in this step
      const step = stepRelease(
        p,
        before,
        state.version + 1,
        state.rounds + state.pending.length,
        this.ctx.snapshotKey,
      );
      const expected = this.isPrivate ? 1 : 0;
      if (!this.serialised && step.releases !== expected) {
        throw new Error(
          `model '${this.row.name}': replaying a batch of ${state.pending.length} rewards made ${step.releases} releases, expected ${expected}; nothing was committed.`,
        );
      }
      computed = p;
      return step;
    };
    return this.commitComputed(
      () => this.store.releaseBatch(this.row.name, this.batch, this.ctx.now(), compute),
      () => computed,
    );
  }

  /**
   * One closed group of a user-level model (`releaseUnitGroup`): the policy, at a time of the
   * group's epoch, replays exactly the group's admitted rewards (each one learned: the store applied
   * the bounds), and a group closed early at an epoch change is released partial (`closeEpoch`).
   * Exactly one release, checked; installed as the view only once committed.
   */
  private async releaseGroup(): Promise<number | null> {
    let computed: Policy | null = null;
    const compute = (state: ModelState, group: UnitGroup): ReleaseInput => {
      const units = this.units as ReplicaUnits;
      const clock = { now: units.epochStart(group.epoch) };
      const p = this.fromStore(state.snapshot, clock);
      const before = p.privacy().releases;
      const learned = p.roundsLearned;
      for (const r of state.pending) observe(p, r.features, r.reward, r.unit);
      if (state.pending.length < this.batch) {
        // closed at an epoch change: released partial, as the next epoch's first reward did
        clock.now = units.epochStart(group.epoch + 1);
        p.closeEpoch();
      }
      const step = stepRelease(
        p,
        before,
        state.version + 1,
        state.rounds + state.pending.length,
        this.ctx.snapshotKey,
      );
      if (step.releases !== 1 || p.roundsLearned - learned !== state.pending.length) {
        throw new Error(
          `model '${this.row.name}': replaying release ${group.release} (${state.pending.length} admitted rewards) learned ${p.roundsLearned - learned} and made ${step.releases} releases, expected all of them and 1; nothing was committed.`,
        );
      }
      computed = p;
      return step;
    };
    return this.commitComputed(
      () => this.store.releaseUnitGroup(this.row.name, this.ctx.now(), compute),
      () => computed,
    );
  }

  /**
   * Runs a store release (`releaseBatch` or `releaseUnitGroup`) whose `compute` leaves the policy
   * it built in `computed()`, and installs that policy as the view only once the row is committed.
   * On an error the outcome is unknown: nothing computed is used and the next check reloads the
   * database. When no row was committed (another replica released this batch or group), refreshes.
   * @returns the committed ledger row's releases, or null.
   */
  private async commitComputed(
    release: () => Promise<{ readonly version: number; readonly releases: number } | null>,
    computed: () => Policy | null,
  ): Promise<number | null> {
    let row: { readonly version: number; readonly releases: number } | null;
    try {
      row = await release();
    } catch (err) {
      // outcome unknown: never decide from the computed release; reload what the database has
      this.lastCheck = Number.NEGATIVE_INFINITY;
      throw err;
    }
    const p = computed();
    if (row === null || p === null) {
      await this.refresh(); // another replica released this batch or group
      return null;
    }
    if (row.version > this.version) {
      this.view = p;
      this.version = row.version;
    }
    this.ctx.metrics.releases.inc({ model: this.row.name });
    return row.releases;
  }

  /** The model's status from the shared database: every replica reports the same guarantee. */
  async status(): Promise<ModelStatus> {
    await this.fresh(true);
    const counts = await this.store.counts(this.row.name);
    const rounds = counts.releasedRewards + counts.pendingRewards;
    const totals = this.units === null ? null : await this.store.unitTotals(this.row.name);
    const status = modelStatus(this.row, this.view, {
      version: this.version,
      rounds,
      counts,
      isPrivate: this.isPrivate,
      bounded: this.bounded,
      horizon: this.horizon,
      learning: this.learnsAt(rounds),
      clippedFeatures: this.clipped,
      unitTotals: totals,
    });
    return totals === null
      ? status
      : { ...status, privacy: withCurrentEpoch(status.privacy, totals.openEpoch) };
  }

  /** The releases committed so far by any replica, with the guarantee of the last one. */
  async ledger(): Promise<LedgerResponse> {
    await this.fresh(true);
    const totals = this.units === null ? null : await this.store.unitTotals(this.row.name);
    return ledgerResponse(this.row, await this.store.ledger(this.row.name), this.view, totals);
  }
}

/**
 * The clock and unit counts a policy restored on a replica reads: the time `time.now`, and counts in
 * memory from zero (they never reach its snapshot). Event-level policies ignore both.
 */
function replayRuntime(time: { readonly now: number }): {
  readonly clock: () => number;
  readonly counters: StoreUnitCounters;
} {
  return { clock: () => time.now, counters: new StoreUnitCounters() };
}

/**
 * A user-level privacy view with the epoch the replicas are in (`openEpoch` from the database; the
 * view's own is that of its last release).
 */
function withCurrentEpoch(privacy: ModelStatus['privacy'], openEpoch: number): ModelStatus['privacy'] {
  const e = privacy.epoch;
  if (e === undefined || openEpoch < 0) return privacy;
  const current = typeof e.current === 'number' ? Math.max(e.current, openEpoch) : openEpoch;
  return { ...privacy, epoch: { ...e, current } };
}
