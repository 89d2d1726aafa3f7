/**
 * One model served by one of several replicas that share a database (PostgreSQL; docs/serving.md,
 * "Several replicas"). Same surface as {@link ModelRuntime}; the difference is where the state is.
 *
 * - **Decision view.** The replica decides from the policy of the last release it has seen (version
 *   v), never from an unreleased reward: restored from the stored snapshot, or the very policy that
 *   computed a release this replica committed. It keeps that policy in memory between steps while
 *   the stored version has not moved (the version check, not a reload). It picks up a newer release when a
 *   notification (LISTEN/NOTIFY) arrives and, to bound the staleness when a notification is lost, by
 *   a cheap version check before a request when the last check is older than `versionCheckMs`.
 *   The notification of a version this replica's own commit in flight makes (it may come before
 *   that commit's answer) reloads nothing: the answer settles it (`committing`).
 *   Staleness: the public matrix A lags by the rewards pending since the last release (< one batch),
 *   the released statistics by at most `versionCheckMs` plus one snapshot read.
 * - **Rewards** are stored as pending (durable when acknowledged; concurrent rewards of a model share
 *   one insert statement, `recordPending`'s group commit). When at least a release unit is pending
 *   (replicaReleaseUnit.ts), the replica reads the oldest unit without the lock (`pendingBatch`),
 *   replays it through its in-memory policy (at the version the unit is pending at) and commits the
 *   new snapshot, the ledger row and the deletion of exactly those raw rewards in one round trip
 *   that holds the model row lock for itself alone (`releasePending`); when the stored version has
 *   moved meanwhile nothing is written and the replica reloads and recomputes. A batched private policy must make exactly one release per batch (none for a
 *   non-private policy, whose unit is 1); a policy with **serialised learning** (JDP-LinUCB,
 *   zCDP-Episodic, DGS-LinUCB, AdaC-OFUL-zCDP, RarelySwitching-zCDP) takes one reward per step and
 *   its ledger row records what the policy itself released in that step (0, 1 or more). So the
 *   model version counts steps, not only privacy releases. Such a step learns the reward directly
 *   (`stepRewards`: the reward, the step's ledger row and snapshot in one round trip under the lock,
 *   never pending) unless rewards are pending (then they are learned first, through the pending
 *   path). A replica that finds the version moved writes nothing, reloads and recomputes.
 * - **Decisions that release** (DGS-LinUCB: a select after new data releases a noisy estimate) are
 *   serialised too (`decideMany`): decided from the view at version v and committed, with the
 *   releases they made, in one round trip under the model row lock that checks the stored version is
 *   still v (else nothing is written, the view reloads and the decisions are made again); the
 *   decisions (and the steps) that queue while a commit is in flight go together in the next one.
 * - **Horizon-bounded policies** (JDP-LinUCB, zCDP-Episodic, DGS-LinUCB) count learned rounds in the
 *   shared database: the reward that would exceed the horizon is refused there (409
 *   horizon_exhausted), atomically across replicas; afterwards decisions come from `decideFrozen`.
 * - **User-level models** (privacyUnit 'user', batched policies): each reward is admitted or dropped
 *   by the one contribution-bound rule inside its store transaction, under the model row lock
 *   (`recordUnitPending`), so replicas together never let a unit pass its bounds; a release replays
 *   exactly one closed group of admitted rewards (`releaseUnitGroup`: `batchSize` of them, or fewer
 *   when an epoch change closed it), so a release never spans an epoch boundary.
 * - Every policy here is restored with `restoreFromStore`: a fresh policy from the database's latest
 *   snapshot, whose lineage the database (not the process) serialises (every commit checks the
 *   version it was computed from).
 * - A release is computed on the view itself, and while its commit is in flight no decision is made
 *   from the view (`mutating`): the computed state becomes the view only once committed. Any other
 *   answer (stale, duplicate, an error: outcome unknown) drops it and the view is reloaded from the
 *   database before the next decision. Rewards that find a full batch pending while a release pass
 *   is queued join it (`releaseAfterReward`).
 *
 * Every request runs concurrently with the others (the database serialises what must be); releases
 * of one model by one replica run one at a time.
 */
import { performance } from 'node:perf_hooks';
import type { Policy, PolicyId } from '../policies/index.js';
import { policyInfo } from '../policies/index.js';
import type {
  DecisionRow,
  DecisionStep,
  ModelRow,
  ModelState,
  ReleaseInput,
  ReplicaStore,
  RewardInput,
  RewardTarget,
  StepInput,
  UnitGroup,
  UnitPendingOutcome,
} from '../store/index.js';
import type { RankInput } from './binaryRank.js';
import type { LedgerResponse, ModelStatus, RankResponse, RewardResponse } from './contract.js';
import { countClipped } from './countClipped.js';
import { DefaultRewardSweep } from './DefaultRewardSweep.js';
import { newEventId } from './eventIds.js';
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
import { eachInTurn, type Outcome, type RewardItem, type ServedModel } from './ServedModel.js';
import { ServiceError } from './ServiceError.js';
import { StoreUnitCounters } from './StoreUnitCounters.js';
import { storedPolicySpec } from './storedPolicySpec.js';
import { decisionRow, eventExists, rewardInput, stepRelease } from './storeInputs.js';
import { type ReplicaUnits, replicaUnits, requireRankUnit, rewardUnit } from './unitModel.js';

/**
 * Most times one step, release or releasing decision is recomputed because another replica moved
 * the version first; then the request fails with 503 (the client may retry).
 */
const MAX_ATTEMPTS = 50;

/** The 503 of a request that lost the race for the model's next version too often. */
function busy(model: string): ServiceError {
  return new ServiceError(
    503,
    'model_busy',
    `model '${model}': other replicas moved its version ${MAX_ATTEMPTS} times while this one computed; retry.`,
  );
}

/** Most steps of a serialised-learning policy committed in one round trip (`stepRewards`). */
const STEP_BATCH_MAX = 64;

/** Most decisions a replica keeps for their reward's read (`ReplicaRuntime.remember`). */
const DECIDED_MAX = 4096;

/** What one step of a serialised-learning policy did (`ReplicaRuntime.step`). */
type StepAnswer =
  | { readonly released: boolean; readonly version: number }
  | 'pending'
  | 'duplicate'
  | 'unknown-event'
  | 'horizon-exhausted';

/** A step waiting for its group commit. */
interface QueuedStep {
  readonly input: RewardInput;
  readonly x: Float64Array;
  readonly resolve: (a: StepAnswer) => void;
  readonly reject: (err: unknown) => void;
}

/** A decision of a policy whose select releases, waiting for its group commit. */
interface QueuedDecision {
  readonly req: RankInput;
  readonly eventId: string;
  readonly feats: Float64Array;
  readonly k: number;
  readonly resolve: (d: { row: DecisionRow; samples: number }) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Entries committed in groups, one group at a time through `run` (the replica's serial chain): an
 * entry pushed while no group is queued or running starts one; the entries pushed meanwhile go in
 * the next. A group is the oldest entries, at most {@link STEP_BATCH_MAX}, each id once (a repeat
 * waits for the next group). `commit` answers its entries; if it throws, they are rejected with it.
 */
class GroupQueue<T extends { readonly reject: (err: unknown) => void }> {
  private queue: T[] = [];
  private busy = false;

  constructor(
    private readonly idOf: (entry: T) => string,
    private readonly run: (fn: () => Promise<void>) => Promise<void>,
    private readonly commit: (group: T[]) => Promise<void>,
  ) {}

  push(entry: T): void {
    this.queue.push(entry);
    if (this.busy) return;
    this.busy = true;
    this.run(() => this.flush()).catch(() => {
      // every entry was answered by flush
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const group: T[] = [];
        const rest: T[] = [];
        const ids = new Set<string>();
        for (const q of this.queue) {
          const id = this.idOf(q);
          if (group.length < STEP_BATCH_MAX && !ids.has(id)) {
            ids.add(id);
            group.push(q);
          } else rest.push(q);
        }
        this.queue = rest;
        try {
          await this.commit(group);
        } catch (err) {
          for (const q of group) q.reject(err);
        }
      }
    } finally {
      this.busy = false;
    }
  }
}

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
  /** Rounds learned at `version` (the stored `rounds` of that release). */
  private rounds: number;
  /** The view holds uncommitted state (a commit failed): reload before any use. */
  private dirty = false;
  /** A commit of state computed on the view is in flight: decisions wait for it. */
  private mutating: Promise<void> | null = null;
  /**
   * The version that this replica's commit in flight makes if it commits (0: none, or not known
   * yet). Its notification is this replica's own and may arrive before the commit's answer: it
   * does not reload the view (the answer settles the version; a stale one reloads).
   */
  private committing = 0;
  private lastCheck: number;
  /** Highest version announced by a notification (a view below it is behind). */
  private announced = 0;
  private reloading: Promise<void> | null = null;
  private releases: Promise<unknown> = Promise.resolve();
  /** A {@link releaseDue} queued behind the serial chain that has not started (`releaseAfterReward`). */
  private releaseQueued: Promise<boolean> | null = null;
  /** Steps of a serialised-learning policy, group-committed (`step`). */
  private readonly stepGroups = new GroupQueue<QueuedStep>(
    (q) => q.input.eventId,
    (fn) => this.serial(fn),
    (group) => this.commitSteps(group),
  );
  /** Decisions of a policy whose select releases, group-committed (`rankSerialised`). */
  private readonly decisionGroups = new GroupQueue<QueuedDecision>(
    (q) => q.eventId,
    (fn) => this.serial(fn),
    (group) => this.commitDecisions(group),
  );
  /** Decisions this replica stored whose reward has not come (`remember`). */
  private readonly decided = new Map<string, RewardTarget>();
  private readonly sweeps = new DefaultRewardSweep();
  /** Feature vectors clipped in this replica's decisions since it started. */
  private clipped = 0;
  /** privacyUnit 'user': the bounds and epochs (admission in the store, see `recordUnit`); null otherwise. */
  private readonly units: ReplicaUnits | null;

  private constructor(
    row: ModelRow,
    view: Policy,
    version: number,
    rounds: number,
    unit: { readonly unit: number; readonly serialised: boolean },
    store: ReplicaStore,
    ctx: RuntimeContext,
    options: ReplicaOptions,
  ) {
    this.row = row;
    this.units = replicaUnits(row);
    this.view = view;
    this.version = version;
    this.rounds = rounds;
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
      state.rounds,
      unit,
      store,
      ctx,
      options,
    );
    await rt.releaseDue();
    return rt;
  }

  /** Calls may overlap (each awaits the database on its own): a batch awaits its events one by one. */
  rankMany(reqs: readonly RankInput[]): Promise<Outcome<RankResponse>[]> {
    return eachInTurn(reqs, (req) => this.rank(req));
  }

  rewardMany(rewards: readonly RewardItem[]): Promise<Outcome<RewardResponse>[]> {
    return eachInTurn(rewards, (r) => this.reward(r.eventId, r.reward, r.unit));
  }

  get stale(): boolean {
    // the view refreshes itself from the database; a model found deleted is loaded again (and gone)
    return this.deleted;
  }

  /** The version check found no model row (deleted by a replica whose notification was lost). */
  private deleted = false;

  /**
   * Keeps what the reward of a decision this replica stored needs (its time, chosen features and
   * unit), so that reward skips the read (`rewardTarget`): clients mostly send a reward to the
   * replica that ranked it. Its state is taken as 'none': whether it was rewarded meanwhile (by
   * another replica, the default-reward sweep) or erased is checked by the reward's own write,
   * which marks a decision only when it has no reward (duplicate, unknown event). User-level models
   * read it (their admission is in the store). At most {@link DECIDED_MAX} are kept, oldest dropped.
   */
  private remember(row: DecisionRow): void {
    if (this.units !== null) return;
    if (this.decided.size >= DECIDED_MAX) {
      const oldest = this.decided.keys().next();
      if (oldest.done !== true) this.decided.delete(oldest.value);
    }
    this.decided.set(row.eventId, {
      time: row.time,
      rewardState: 'none',
      chosenFeatures: row.chosenFeatures,
      unit: row.unit ?? null,
    });
  }

  /** Records that release `version` was committed (a notification); the view reloads. */
  notify(version: number): void {
    if (version > this.announced) this.announced = version;
    if (version <= Math.max(this.version, this.committing)) return;
    this.refresh().catch(() => {
      // the next request retries (lastCheck is reset on failure)
    });
  }

  /** Brings the view to the stored version when a release was announced or the last check is old. */
  private async fresh(force = false): Promise<void> {
    if (
      !force &&
      this.announced <= Math.max(this.version, this.committing) &&
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
        // a dirty view (uncommitted state) is replaced even at the same version, never by an older one
        const v = await this.store.modelVersion(this.row.name);
        if (v === null) this.deleted = true;
        if (v !== null && (v > this.version || this.dirty)) {
          const state = await this.store.releasedState(this.row.name);
          if (
            state !== null &&
            (state.version > this.version || (this.dirty && state.version === this.version))
          )
            this.install(state);
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

  private install(state: {
    readonly snapshot: string;
    readonly version: number;
    readonly rounds: number;
  }): void {
    this.view = this.fromStore(state.snapshot);
    this.version = state.version;
    this.rounds = state.rounds;
    this.dirty = false;
  }

  /**
   * Makes `p`, whose state this replica committed as `version` (with `rounds`), the view, unless
   * the view has meanwhile been reloaded at that version or a later one (a notification): the view
   * and its version always come from the same release.
   */
  private adopt(p: Policy, version: number, rounds: number): void {
    if (version <= this.version && !this.dirty) return;
    if (version < this.version) return;
    this.view = p;
    this.version = version;
    this.rounds = rounds;
    this.dirty = false;
  }

  /** Replaces the view by the stored release (after a commit that did not take). */
  private async reload(): Promise<void> {
    const state = await this.store.releasedState(this.row.name);
    if (state === null) {
      this.deleted = true;
      return;
    }
    this.install(state);
  }

  /**
   * Runs `fn` with the view to itself: steps, releases and releasing decisions of this replica run
   * one at a time (across replicas the version check of each commit serialises them).
   */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.releases.then(fn);
    this.releases = run.catch(() => undefined);
    return run;
  }

  /**
   * Computes on the view and commits: `work` gets the view `p` (reloaded first when dirty), its
   * version `v` and rounds, computes synchronously on `p` and returns the one awaited commit;
   * decisions are held back until the answer. `accept` applies a committed answer (normally
   * `adopt(p, v + 1, ...)`) and returns true; on any other answer or an error, the view is reloaded
   * from the database (a failed reload leaves it dirty, so the next decision reloads first).
   */
  private async commitOnView<T>(
    work: (p: Policy, v: number, rounds: number) => Promise<T>,
    accept: (out: T, p: Policy, v: number, rounds: number) => boolean,
  ): Promise<T> {
    if (this.dirty) await this.reload();
    const p = this.view;
    const v = this.version;
    const rounds = this.rounds;
    let done: () => void = () => {};
    this.mutating = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      let out: T;
      try {
        out = await work(p, v, rounds);
      } catch (err) {
        this.dirty = true;
        this.lastCheck = Number.NEGATIVE_INFINITY;
        await this.reload().catch(() => {});
        throw err;
      }
      if (!accept(out, p, v, rounds)) {
        this.dirty = true;
        await this.reload();
      }
      return out;
    } finally {
      this.committing = 0;
      this.mutating = null;
      done();
    }
  }

  /**
   * Waits until a decision may be made from the view: no commit in flight, nothing uncommitted in
   * it, and the version checked when due. The caller decides synchronously right after.
   */
  private async ready(): Promise<void> {
    let checked = false;
    for (;;) {
      if (this.mutating !== null) {
        await this.mutating;
        continue;
      }
      if (this.dirty) {
        if (this.deleted) {
          throw new ServiceError(404, 'model_not_found', `model '${this.row.name}' does not exist.`);
        }
        await this.refresh();
        continue;
      }
      if (!checked) {
        checked = true;
        await this.fresh();
        continue;
      }
      return;
    }
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
  async rank(req: RankInput): Promise<RankResponse> {
    const k = req.arms.length;
    const feats = rankFeatures(req, this.dim, this.row.name);
    requireRankUnit(this.row, req.unit, this.units !== null);
    const eventId = req.eventId ?? newEventId();
    let row: DecisionRow;
    let samples: number;
    if (this.atSelect) {
      const r = await this.rankSerialised(req, eventId, feats, k);
      row = r.row;
      samples = r.samples;
    } else {
      await this.ready();
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
    this.remember(row);
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
   * A decision of a policy whose select releases (DGS-LinUCB), serialised with its learning.
   * Decisions group-commit like steps: the decision joins the queue, and the queue's oldest ones
   * (distinct event ids, at most {@link STEP_BATCH_MAX}) are decided in order on the view at version
   * v; every decision and, for each one that released, its ledger row (the k-th at version v + k;
   * the decision carries that version) and the snapshot after the last commit in one round trip that
   * checks the stored version is still v (`decideMany`). When it moved, nothing is written: the view
   * reloads and the decisions are made again.
   */
  private rankSerialised(
    req: RankInput,
    eventId: string,
    feats: Float64Array,
    k: number,
  ): Promise<{ row: DecisionRow; samples: number }> {
    return new Promise((resolve, reject) => {
      this.decisionGroups.push({ req, eventId, feats, k, resolve, reject });
    });
  }

  /** Commits `group` (decided again while the version moves); answers each of its decisions. */
  private async commitDecisions(group: QueuedDecision[]): Promise<void> {
    for (let attempt = 0; group.length > 0; attempt++) {
      const done: { row: DecisionRow; samples: number; clipped: number; made: boolean }[] = [];
      let made = 0;
      const out = await this.commitOnView(
        (p, v, rounds) => {
          const steps: DecisionStep[] = [];
          for (const q of group) {
            const before = p.privacy().releases;
            const samples = displaySamples(this.row.settings, q.req.withProbabilities);
            const r = this.decideWith(p, q.feats, q.k, samples);
            const spent = p.privacy();
            const released = spent.releases > before;
            if (released) made++;
            const row = decisionRow(
              this.row,
              q.req,
              q.eventId,
              q.feats,
              this.dim,
              r.dec,
              v + made,
              this.ctx.now(),
            );
            done.push({ row, samples: r.dec.samples, clipped: r.clipped, made: released });
            steps.push({
              decision: row,
              release: released ? { releases: spent.releases - before, spent: { ...spent } } : null,
            });
          }
          const snapshot = made > 0 ? JSON.stringify(p.snapshot({ key: this.ctx.snapshotKey })) : null;
          if (made > 0) this.committing = v + made;
          return this.store.decideMany(this.row.name, v, steps, rounds, snapshot);
        },
        (a, p, v, rounds) => {
          // decisions that released nothing changed no shared state
          if (a !== 'inserted') return made === 0 && a !== 'stale';
          if (made > 0) this.adopt(p, v + made, rounds);
          return true;
        },
      );
      if (out === 'gone') {
        throw new ServiceError(404, 'model_not_found', `model '${this.row.name}' does not exist.`);
      }
      if (out === 'stale') {
        if (attempt >= MAX_ATTEMPTS) throw busy(this.row.name);
        continue;
      }
      if (out !== 'inserted') {
        // one event id has a decision: it is refused, the others are decided again without it
        const [bad] = group.splice(out.exists, 1);
        bad!.reject(eventExists(this.row, bad!.eventId));
        continue;
      }
      for (let i = 0; i < group.length; i++) {
        const d = done[i]!;
        this.clipped += d.clipped;
        if (d.made) this.ctx.metrics.releases.inc({ model: this.row.name });
        group[i]!.resolve({ row: d.row, samples: d.samples });
      }
      return;
    }
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
    const mine = this.decided.get(eventId);
    if (mine !== undefined) this.decided.delete(eventId);
    const target = mine ?? (await this.store.rewardTarget(name, eventId));
    const d = admitReward(this.row, eventId, target, this.ctx.now());
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
    if (this.serialised) {
      const s = await this.step(eventId, d.chosenFeatures, reward, 'given', named);
      if (s !== 'pending') {
        if (s === 'duplicate') throw duplicateReward(eventId);
        if (s === 'unknown-event') throw eventNotFound(name, eventId);
        if (s === 'horizon-exhausted') throw horizonExhausted(name, this.horizon);
        return { eventId, status: 'recorded', released: s.released, modelVersion: s.version };
      }
      // rewards are pending (a crash, the default-reward sweep): this one joins them, in order
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
    const released = await this.releaseAfterReward().catch(() => {
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

  /**
   * One step of a serialised-learning policy that learns reward `reward` of `eventId` (chosen
   * features `x`) directly. Steps group-commit: the step joins the queue, and the queue's oldest
   * steps (distinct events, at most {@link STEP_BATCH_MAX}) are computed in order on the view at
   * version v and committed together in one round trip (`stepRewards`: one lock, one ledger row
   * per step) that checks the version; when it moved, the view reloads and the steps are computed
   * again. 'pending': rewards are pending, nothing was written (the caller stores this one as
   * pending).
   */
  private step(
    eventId: string,
    x: Float64Array,
    reward: number,
    source: 'given' | 'default',
    unit: string | null,
  ): Promise<StepAnswer> {
    return new Promise<StepAnswer>((resolve, reject) => {
      const input: RewardInput = {
        ...rewardInput(this.row, eventId, reward, this.ctx.now(), source),
        ...(unit !== null ? { unit } : {}),
      };
      // an event repeated in a group would be learned twice: it waits for the next group
      this.stepGroups.push({ input, x, resolve, reject });
    });
  }

  /** Commits `group` (computed again while the version moves); answers each of its steps. */
  private async commitSteps(group: QueuedStep[]): Promise<void> {
    for (let attempt = 0; group.length > 0; attempt++) {
      if (this.dirty) await this.reload();
      if (this.bounded) {
        // the stored rounds only grow: what passes the horizon is refused, the rest goes on
        const room = Math.max(0, this.horizon - this.rounds);
        for (const q of group.splice(room)) q.resolve('horizon-exhausted');
        if (group.length === 0) return;
      }
      const releases: number[] = [];
      let version = 0;
      const out = await this.commitOnView(
        (p, v, rounds) => {
          version = v;
          const steps: StepInput[] = [];
          for (const q of group) {
            const before = p.privacy().releases;
            observe(p, q.x, q.input.reward);
            const spent = p.privacy();
            releases.push(spent.releases - before);
            steps.push({ reward: q.input, releases: spent.releases - before, spent: { ...spent } });
          }
          const snapshot = JSON.stringify(p.snapshot({ key: this.ctx.snapshotKey }));
          this.committing = v + steps.length;
          return this.store.stepRewards(
            this.row.name,
            v,
            this.bounded ? this.horizon : null,
            steps,
            rounds + steps.length,
            snapshot,
          );
        },
        (o, p, v, rounds) => {
          if (o !== 'recorded') return false;
          this.adopt(p, v + group.length, rounds + group.length);
          return true;
        },
      );
      if (out === 'recorded') {
        for (let i = 0; i < group.length; i++) {
          this.ctx.metrics.releases.inc({ model: this.row.name });
          group[i]!.resolve({ released: releases[i]! > 0, version: version + i + 1 });
        }
        return;
      }
      if (out === 'stale') {
        if (attempt >= MAX_ATTEMPTS) throw busy(this.row.name);
        continue;
      }
      if (typeof out === 'string') {
        for (const q of group) q.resolve(out);
        return;
      }
      // one event cannot be learned: it is answered, the others are computed again without it
      const [bad] = group.splice(out.rejected, 1);
      bad!.resolve(out.outcome);
    }
  }

  /** Gives the default reward to decisions whose window has closed (another replica may have). */
  async sweep(): Promise<void> {
    const due = await this.sweeps.due(this.row, this.store, this.ctx.now(), this.ctx.sweepIntervalMs);
    if (due === null) return;
    const def = due.reward;
    let recorded = 0;
    for (const r of due.rows) {
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
   * {@link releaseDue} after a reward that found a full unit pending: when a releaseDue is queued and
   * has not started, this one joins it (false: that call reports the releases it makes), since it
   * reads the pending rewards after this reward was committed. Rewards that arrive while a release
   * commits so wait for one more pass, not one pass (and one read of the pending rewards) each.
   */
  private releaseAfterReward(): Promise<boolean> {
    const queued = this.releaseQueued;
    if (queued !== null) return queued.then(() => false);
    const run: Promise<boolean> = this.serial(() => {
      if (this.releaseQueued === run) this.releaseQueued = null; // started: later rewards queue anew
      return this.releaseAll();
    });
    this.releaseQueued = run;
    return run;
  }

  /**
   * Releases every full unit pending (one release of this model at a time in this replica). True
   * when this call committed at least one release: a batch (a step of a non-private policy), or, with
   * serialised learning, a step in which the policy released.
   */
  releaseDue(): Promise<boolean> {
    return this.serial(() => this.releaseAll());
  }

  /** The work of {@link releaseDue}, on the serial chain. */
  private async releaseAll(): Promise<boolean> {
    let released = false;
    if (this.units !== null) {
      while ((await this.store.unitGroupsDue(this.row.name)) > 0) {
        if ((await this.releaseGroup()) !== null) released = true;
      }
      return released;
    }
    for (let stale = 0; ; ) {
      const made = await this.releaseOne();
      if (made === 'none') return released;
      if (made === 'stale') {
        if (++stale > MAX_ATTEMPTS) throw busy(this.row.name);
        continue;
      }
      if (!this.serialised || made > 0) released = true;
    }
  }

  /**
   * The release of the oldest full unit pending: read without the lock (`pendingBatch`), replayed
   * through the view at the version it is pending at, committed in one round trip that checks that
   * version (`releasePending`). Returns the privacy releases of the committed step, 'none' when no
   * full unit is pending, or 'stale' when the version moved (nothing written; the view reloaded).
   */
  private async releaseOne(): Promise<number | 'none' | 'stale'> {
    if (this.dirty) await this.reload();
    const b = await this.store.pendingBatch(this.row.name, this.batch);
    if (b === null) {
      this.deleted = true;
      return 'none';
    }
    if (b.pending.length < this.batch) return 'none';
    if (b.version !== this.version) {
      await this.refresh(); // another replica released: catch up, then read the oldest unit again
      return 'stale';
    }
    let releases = 0;
    const out = await this.commitOnView(
      (p, v) => {
        if (v !== b.version) return Promise.resolve('stale' as const); // reloaded meanwhile: read again
        const before = p.privacy().releases;
        for (const r of b.pending) observe(p, r.features, r.reward);
        // the ledger row records exactly what the policy made: for a batched policy that is one
        // release per batch (none when non-private), checked; with serialised learning, whatever the
        // policy itself released in this step
        const step = stepRelease(p, before, b.version + 1, b.rounds + b.pending.length, this.ctx.snapshotKey);
        const expected = this.isPrivate ? 1 : 0;
        if (!this.serialised && step.releases !== expected) {
          throw new Error(
            `model '${this.row.name}': replaying a batch of ${b.pending.length} rewards made ${step.releases} releases, expected ${expected}; nothing was committed.`,
          );
        }
        releases = step.releases;
        this.committing = step.version;
        return this.store.releasePending(this.row.name, b, step, this.ctx.now());
      },
      (o, p) => {
        if (typeof o === 'string') return false;
        this.adopt(p, o.version, o.rounds);
        return true;
      },
    );
    if (out === 'gone') {
      this.deleted = true;
      return 'none';
    }
    if (out === 'stale') return 'stale';
    this.ctx.metrics.releases.inc({ model: this.row.name });
    return releases;
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
      this.committing = step.version;
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
    release: () => Promise<{
      readonly version: number;
      readonly releases: number;
      readonly rounds: number;
    } | null>,
    computed: () => Policy | null,
  ): Promise<number | null> {
    let row: { readonly version: number; readonly releases: number; readonly rounds: number } | null;
    try {
      row = await release();
    } catch (err) {
      // outcome unknown: never decide from the computed release; reload what the database has
      this.lastCheck = Number.NEGATIVE_INFINITY;
      throw err;
    } finally {
      this.committing = 0;
    }
    const p = computed();
    if (row === null || p === null) {
      await this.refresh(); // another replica released this batch or group
      return null;
    }
    if (row.version > this.version) {
      this.view = p;
      this.version = row.version;
      this.rounds = row.rounds;
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
