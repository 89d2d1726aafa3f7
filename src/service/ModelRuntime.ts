/**
 * One model served from memory: its policy, rebuilt at load from the last released snapshot plus a
 * replay of the rewards received since (in arrival order), and the rules of rank and reward.
 *
 * Exactly-once releases: a reward is applied to the in-memory policy and stored in one store call
 * (`recordReward`); when the reward completed a batch (the ledger's release count grew), the new
 * snapshot, the ledger row and the deletion of the batch's raw rewards go into the same transaction.
 * Every rank and reward of a model runs exclusively (one at a time, in arrival order), and no answer
 * leaves the process before the store has committed its writes (`Store.durable`; with SQLite group
 * commit, the writes of concurrent requests commit together, in order), so nothing that depends on
 * a release is seen before the release is committed. If a store call or a commit fails (or the
 * process dies), the in-memory state is dropped and rebuilt from the database, whose last snapshot
 * knows nothing of the uncommitted release, so its noise was never used.
 */
import type { Policy, SnapshotKey } from '../policies/index.js';
import { createPolicy, policyInfo } from '../policies/index.js';
import type { DecisionRow, ModelRow, ReleaseInput, Store, UnitCountRow, UnitWrite } from '../store/index.js';
import type { RankInput } from './binaryRank.js';
import type { LedgerResponse, ModelStatus, RankResponse, RewardResponse } from './contract.js';
import { countClipped } from './countClipped.js';
import { DefaultRewardSweep } from './DefaultRewardSweep.js';
import { newEventId } from './eventIds.js';
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
import { admitReward, duplicateReward, eventNotFound, horizonExhausted } from './rewardAdmission.js';
import { eachInTurn, type Outcome, type RewardItem, type ServedModel } from './ServedModel.js';
import { ServiceError } from './ServiceError.js';
import type { ServiceMetrics } from './ServiceMetrics.js';
import { storedPolicySpec } from './storedPolicySpec.js';
import { decisionRow, eventExists, rewardInput, stepRelease } from './storeInputs.js';
import { requireRankUnit, rewardUnit, type UnitModel, unitModel } from './unitModel.js';

/** A rank decided and not yet stored (see `ModelRuntime.decideEvent`). */
interface DecidedEvent {
  readonly req: RankInput;
  readonly feats: Float64Array;
  /** Whether the model was learning when it decided. */
  readonly learning: boolean;
  readonly dec: DriverDecision;
  readonly release: ReleaseInput | null;
  readonly row: DecisionRow;
}

/** What a runtime needs from the server. */
export interface RuntimeContext {
  readonly store: Store;
  /** Milliseconds since the epoch (injected in tests). */
  readonly now: () => number;
  readonly metrics: ServiceMetrics;
  /** Minimum milliseconds between two default-reward sweeps of a model (0: at every reward). */
  readonly sweepIntervalMs: number;
  /** The key of the stored snapshots' MAC (createServer's `snapshotKey`). */
  readonly snapshotKey: SnapshotKey;
}

/**
 * Before the replay of a user-level model's pending rewards at load:
 * - the rewards dropped since the restored snapshot (the store's totals minus the snapshot's counts)
 *   are counted as offered and dropped: they are not replayed (only kept rewards are pending), and
 *   with `epochRounds` the epoch is the count of rewards offered, so the replay and every later
 *   reward fall in the epoch they fall in without the restart. (All of the pending rewards are in
 *   the open epoch: a release never spans an epoch boundary, and a reward of a new epoch releases
 *   the open batch before it is counted.)
 * - with subsampled releases (q < 1), each pending reward's unit was drawn into or out of the open
 *   release once, when it joined it, and the draw was stored in the unit's row in that reward's
 *   transaction: the rows are read so that the replay reuses the draws (never a second draw for a
 *   release that is half-done). A pending reward whose unit has no draw stored for the open release
 *   means the database is inconsistent: refused.
 */
async function resumeUnits(
  name: string,
  policy: Policy,
  units: UnitModel,
  pending: readonly { readonly unit?: string | null }[],
  store: Store,
): Promise<void> {
  const s = policy.privacy();
  const totals = await store.unitTotals(name);
  const dr = Math.max(0, totals.droppedPerRelease - (s.dropped?.perRelease ?? 0));
  const de = Math.max(0, totals.droppedPerEpoch - (s.dropped?.perEpoch ?? 0));
  // every user-level policy is a BasePolicy (createPolicy's); an event-level one has no units here
  (policy as Policy & { resumeDroppedRewards?(a: number, b: number): void }).resumeDroppedRewards?.(dr, de);
  if (!units.sampled) return;
  const open = s.releases + 1;
  const rows = new Map<string, UnitCountRow>();
  for (const p of pending) {
    const unit = p.unit ?? null;
    if (unit === null || rows.has(unit)) continue;
    const row = await store.unitCount(name, unit);
    if (row === null || row.release !== open || row.sampled === null) {
      throw new Error(
        `model '${name}': pending reward of unit '${unit}' has no sampling draw stored for the open release ${open}; the database is inconsistent.`,
      );
    }
    rows.set(unit, row);
  }
  units.counters.recallDraws(rows);
}

export class ModelRuntime implements ServedModel {
  readonly row: ModelRow;
  private readonly policy: Policy;
  private readonly ctx: RuntimeContext;
  private readonly dim: number;
  private readonly horizon: number;
  private readonly bounded: boolean;
  private readonly releasesAtSelect: boolean;
  private version: number;
  private rounds: number;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly sweeps = new DefaultRewardSweep();
  /** True once the in-memory state may differ from the database (a failed write): reload before use. */
  private staleFlag = false;
  /**
   * True while a call has changed the in-memory state and the store has not yet confirmed its write
   * (it may wait for the write lock): a call that fails in that state makes the model stale. Not
   * stale by itself, since other requests may see it while the write waits.
   */
  private unconfirmed = false;
  /**
   * Clipped candidate vectors of stored decisions that `policy.clippedCount` does not hold: those of
   * decisions since the last release when the model was loaded (its snapshot predates them), plus
   * those of decisions without a round (frozen), minus those of rounds whose decision was refused.
   */
  private clippedExtra: number;
  /** privacyUnit 'user': the unit counts in the store and the clock the policy reads; null otherwise. */
  private readonly units: UnitModel | null;

  private constructor(
    row: ModelRow,
    policy: Policy,
    version: number,
    rounds: number,
    ctx: RuntimeContext,
    clippedExtra: number,
    units: UnitModel | null,
  ) {
    this.row = row;
    this.units = units;
    this.clippedExtra = clippedExtra;
    this.policy = policy;
    this.ctx = ctx;
    this.dim = policy.config.dim;
    this.horizon = policy.config.horizon;
    this.bounded = boundedByHorizon(policy.id);
    this.releasesAtSelect = policyInfo(policy.id).releasesAtSelect;
    this.version = version;
    this.rounds = rounds;
  }

  /**
   * Rebuilds model `name` from the store (null when it does not exist): restores the last snapshot
   * and replays the pending rewards. A replay that would release a batch means the database is
   * inconsistent (a batch's rewards are deleted in the transaction of its release): refused.
   */
  static async load(name: string, ctx: RuntimeContext): Promise<ModelRuntime | null> {
    const row = await ctx.store.getModel(name);
    if (row === null) return null;
    const state = await ctx.store.loadModelState(name);
    if (state === null) return null;
    const units = await unitModel(row, ctx.store);
    const spec = storedPolicySpec(row);
    const policy: Policy = createPolicy(spec.id, spec.options, units?.runtime);
    policy.restore(JSON.parse(state.snapshot), { key: ctx.snapshotKey });
    const before = policy.privacy().releases;
    // the pending rewards were kept when they arrived (their counts are stored): replayed with the
    // counts in memory, at a time of the open epoch they were admitted in
    if (units !== null) {
      units.clock.now = units.openEpochTime;
      await resumeUnits(name, policy, units, state.pending, ctx.store);
    }
    for (const p of state.pending) observe(policy, p.features, p.reward, p.unit);
    units?.counters.endReplay();
    if (policy.privacy().releases !== before) {
      throw new Error(
        `model '${name}': replaying its ${state.pending.length} pending rewards released a batch; the database is inconsistent.`,
      );
    }
    const d = policy.config.dim;
    // decisions at the snapshot's version that it does not know: all of them, except, for a policy
    // whose select releases (DGS-LinUCB), the first, which made that release (its snapshot was taken
    // after that decision; with one server per file that decision is always stored)
    const atVersion = await ctx.store.decisionFeaturesAt(name, state.version);
    const known = state.version > 0 && policyInfo(policy.id).releasesAtSelect ? 1 : 0;
    let clipped = 0;
    for (const r of atVersion.slice(known))
      clipped += r.clipped ?? countClipped(r.features, r.features.length / d, d);
    return new ModelRuntime(
      { ...row, version: state.version },
      policy,
      state.version,
      state.rounds + state.pending.length,
      ctx,
      clipped,
      units,
    );
  }

  get stale(): boolean {
    return this.staleFlag;
  }

  /** True while the model may learn (policies bounded by their horizon stop after `horizon` rounds). */
  get learning(): boolean {
    return !(this.bounded && this.rounds >= this.horizon);
  }

  /**
   * Runs `fn` after every earlier call on this model has finished (one at a time, in order), then
   * waits until the store has committed what `fn` wrote or read (group commit: together with the
   * other requests of the same turn of the event loop) before answering, error answers included. A
   * call queued behind a failed write finds the model stale and is refused (503): it never decides
   * from a state the database does not have.
   */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.turn(fn));
    this.queue = run.catch(() => undefined);
    return run.then(
      async (r) => {
        await this.settle();
        return r;
      },
      async (err: unknown) => {
        await this.settle();
        throw err;
      },
    );
  }

  /**
   * The events of a batch as one call on the queue: each runs as its own {@link exclusive} call
   * would (one after another, in order; a write that fails makes the model stale and the events
   * after it are refused), then one wait for the commit of them all (see {@link exclusiveBatch}).
   */
  private exclusiveEach<I, T>(items: readonly I[], fn: (item: I) => Promise<T>): Promise<Outcome<T>[]> {
    return this.exclusiveBatch(() => eachInTurn(items, (it) => this.turn(() => fn(it))));
  }

  /**
   * `run` (the events of a batch, one outcome each) as one call on the queue, then one wait for the
   * commit of them all. A failed commit fails every event, as it fails each single call that
   * waited for it.
   */
  private exclusiveBatch<T>(run: () => Promise<Outcome<T>[]>): Promise<Outcome<T>[]> {
    const out = this.queue.then(run);
    this.queue = out.catch(() => undefined);
    return out.then(async (outcomes) => {
      try {
        await this.settle();
      } catch (error) {
        return outcomes.map((): Outcome<T> => ({ ok: false, error }));
      }
      return outcomes;
    });
  }

  /**
   * One call's turn on the queue: refused while the model is stale; a call that fails while the
   * store has not confirmed its writes makes it stale before the next call runs (the in-memory
   * state may be ahead of the database).
   */
  private async turn<T>(fn: () => Promise<T>): Promise<T> {
    if (this.staleFlag) throw this.reloading();
    try {
      return await fn();
    } catch (err) {
      if (this.unconfirmed) this.staleFlag = true;
      throw err;
    }
  }

  private reloading(): ServiceError {
    return new ServiceError(
      503,
      'model_reloading',
      `model '${this.row.name}': a write failed and the model is being reloaded from the database; retry.`,
    );
  }

  /** Waits for the store's commit of everything written so far; a failed commit makes the model stale. */
  private async settle(): Promise<void> {
    try {
      await this.ctx.store.durable();
    } catch (err) {
      this.staleFlag = true;
      throw err;
    }
  }

  /** Decides among the request's arms and stores the decision before answering. */
  rank(req: RankInput): Promise<RankResponse> {
    const feats = this.admitRank(req);
    return this.exclusive(() => this.rankNow(req, feats));
  }

  /**
   * A policy whose select may release (DGS-LinUCB) ranks each event in its own turn (decide, then
   * store with the release); the others in two phases ({@link rankPhased}).
   */
  rankMany(reqs: readonly RankInput[]): Promise<Outcome<RankResponse>[]> {
    if (this.releasesAtSelect) {
      return this.exclusiveEach(reqs, (req) => this.rankNow(req, this.admitRank(req)));
    }
    return this.exclusiveBatch(() => this.rankPhased(reqs));
  }

  /** The request's features, checked against the model (and its unit, for a user-level model). */
  private admitRank(req: RankInput): Float64Array {
    const feats = rankFeatures(req, this.dim, this.row.name);
    requireRankUnit(this.row, req.unit, this.units !== null);
    return feats;
  }

  /** {@link rank}'s turn on the queue. */
  private async rankNow(req: RankInput, feats: Float64Array): Promise<RankResponse> {
    // a policy whose select may release (DGS-LinUCB) refuses a known event id before deciding; for
    // the others the store's unique key refuses it (insertDecision returns false)
    if (
      req.eventId !== undefined &&
      this.releasesAtSelect &&
      (await this.ctx.store.rewardTarget(this.row.name, req.eventId)) !== null
    ) {
      throw eventExists(this.row, req.eventId);
    }
    this.unconfirmed = true; // until the store confirms (a select may have released)
    return this.storeDecided(this.decideEvent(req, feats));
  }

  /**
   * The events of a rank batch in two phases, for a policy whose select never releases: every event
   * decides, then the decisions are stored one after another. The inserts then run back to back
   * (measured at d = 20, K = 5 in batches of 100: 45 against 47 us of the server's main thread per
   * pair, docs/performance.md), and each outcome is the one the events ranked one by one would get:
   * a refused request (400) fails alone; a stale model refuses every event after (503
   * `model_reloading`); the first write that fails fails its event, makes the model stale, and
   * nothing is stored for the events after it, which are refused. A decide that throws (a bug)
   * fails its event and makes the model stale; then no event of the batch is stored.
   */
  private async rankPhased(reqs: readonly RankInput[]): Promise<Outcome<RankResponse>[]> {
    // one entry per event: its outcome, or (decided) its index in `decided`
    const slots: (Outcome<RankResponse> | number)[] = [];
    const decided: DecidedEvent[] = [];
    for (const req of reqs) {
      if (this.staleFlag) {
        slots.push({ ok: false, error: this.reloading() });
        continue;
      }
      let feats: Float64Array;
      try {
        feats = this.admitRank(req);
      } catch (error) {
        slots.push({ ok: false, error });
        continue;
      }
      try {
        slots.push(decided.push(this.decideEvent(req, feats)) - 1);
      } catch (error) {
        slots.push({ ok: false, error });
        this.staleFlag = true;
      }
    }
    const stored = await eachInTurn(decided, (e) =>
      this.turn(() => {
        this.unconfirmed = true; // until the store confirms
        return this.storeDecided(e);
      }),
    );
    return slots.map((s) => (typeof s === 'number' ? stored[s]! : s));
  }

  /**
   * An event's decision, not yet stored: the policy decides (from a frozen state once it stopped
   * learning), and the release its select made (DGS-LinUCB) is taken with it.
   */
  private decideEvent(req: RankInput, feats: Float64Array): DecidedEvent {
    const d = this.dim;
    const k = req.arms.length;
    const samples = displaySamples(this.row.settings, req.withProbabilities);
    const learning = this.learning;
    const p = this.policy;
    const before = p.privacy().releases;
    const dec = learning ? decide(p, feats, k, samples) : decideFrozen(p, feats, k, samples);
    const eventId = req.eventId ?? newEventId();
    // a release made by the select commits with the decision: the snapshot, the ledger row and the
    // pending rewards it covered (DGS-LinUCB releases its estimate when data arrived since the last)
    const release =
      p.privacy().releases === before
        ? null
        : stepRelease(p, before, this.version + 1, this.rounds, this.ctx.snapshotKey);
    const version = release === null ? this.version : release.version;
    const row = decisionRow(this.row, req, eventId, feats, d, dec, version, this.ctx.now());
    return { req, feats, learning, dec, release, row };
  }

  /** Stores a decided event (with its release) and answers it; 409 when its event id is taken. */
  private async storeDecided(e: DecidedEvent): Promise<RankResponse> {
    const { req, feats, learning, dec, release, row } = e;
    const ok = await this.ctx.store.insertDecision(row, release);
    this.unconfirmed = false;
    if (release !== null) {
      this.version = release.version;
      this.ctx.metrics.releases.inc({ model: this.row.name });
    }
    // keep clippedFeatures = the clipped vectors of the stored decisions (decide counts its round's)
    if (learning !== ok) this.clippedExtra += (ok ? 1 : -1) * countClipped(feats, req.arms.length, this.dim);
    if (!ok) throw eventExists(this.row, row.eventId);
    this.ctx.metrics.decisions.inc({ model: this.row.name });
    return {
      eventId: row.eventId,
      chosen: dec.arm,
      chosenId: req.arms[dec.arm]!.id,
      ...(row.probabilities === null
        ? {}
        : { probabilities: row.probabilities, probabilitySamples: dec.samples }),
      modelVersion: row.modelVersion,
    };
  }

  /**
   * Records the reward of `eventId` (durable before this resolves); may release a batch with it. A
   * user-level model learns it only within its unit's contribution bounds (`dropped` says which
   * bound refused it; it is acknowledged and counted, never learned).
   */
  reward(eventId: string, reward: number, unit?: string): Promise<RewardResponse> {
    return this.exclusive(() => this.rewardNow(eventId, reward, unit));
  }

  rewardMany(rewards: readonly RewardItem[]): Promise<Outcome<RewardResponse>[]> {
    return this.exclusiveEach(rewards, (r) => this.rewardNow(r.eventId, r.reward, r.unit));
  }

  /** {@link reward}'s turn on the queue. */
  private async rewardNow(
    eventId: string,
    reward: number,
    unit: string | undefined,
  ): Promise<RewardResponse> {
    await this.sweepLocked();
    const d = admitReward(
      this.row,
      eventId,
      await this.ctx.store.rewardTarget(this.row.name, eventId),
      this.ctx.now(),
    );
    if (!this.learning) throw horizonExhausted(this.row.name, this.horizon);
    const effective = rewardUnit(this.row, eventId, d.unit ?? null, unit, this.units !== null);
    const r = await this.apply(eventId, d.chosenFeatures, reward, 'given', effective);
    return {
      eventId,
      status: 'recorded',
      released: r.released,
      modelVersion: this.version,
      ...(r.dropped !== null ? { dropped: r.dropped } : {}),
    };
  }

  /** Gives the default reward to decisions whose window has closed (models with a default reward). */
  sweep(): Promise<void> {
    return this.exclusive(() => this.sweepLocked());
  }

  private async sweepLocked(): Promise<void> {
    const due = await this.sweeps.due(this.row, this.ctx.store, this.ctx.now(), this.ctx.sweepIntervalMs);
    if (due === null) return;
    for (const r of due.rows) {
      if (!this.learning) return;
      if (this.units !== null && r.unit == null) continue; // never learned without a unit (ranks need one)
      await this.apply(r.eventId, r.chosenFeatures, due.reward, 'default', r.unit ?? null);
    }
  }

  /**
   * Observes in memory and commits (with the release it made, if any, and, for a user-level model,
   * the unit's new count or the drop, in the same transaction). Returns whether it released and
   * which bound dropped the reward (null: learned).
   */
  private async apply(
    eventId: string,
    x: Float64Array,
    reward: number,
    source: 'given' | 'default',
    unit: string | null,
  ): Promise<{ readonly released: boolean; readonly dropped: 'perRelease' | 'perEpoch' | null }> {
    const p = this.policy;
    const before = p.privacy().releases;
    const units = this.units;
    const now = this.ctx.now();
    if (units !== null && unit !== null) {
      units.counters.prime(unit, await this.ctx.store.unitCount(this.row.name, unit));
      units.clock.now = now;
    }
    this.unconfirmed = true; // until the store confirms
    const droppedBefore = p.privacy().dropped;
    const learnedBefore = p.roundsLearned;
    // user-level: the partial release of an earlier epoch is made first and commits before this
    // reward, without it (releaseBefore)
    if (units !== null && unit !== null) p.closeEpoch();
    const closed = p.privacy().releases > before;
    // its snapshot is taken before the reward is learned (the reward stays pending, replayed at load)
    const closing = closed
      ? stepRelease(p, before, this.version + 1, this.rounds, this.ctx.snapshotKey)
      : null;
    observe(p, x, reward, unit);
    const learned = p.roundsLearned > learnedBefore;
    let dropped: 'perRelease' | 'perEpoch' | null = null;
    let write: UnitWrite | null = null;
    if (units !== null && unit !== null) {
      const after = p.privacy().dropped;
      if (!learned)
        dropped = (after?.perEpoch ?? 0) > (droppedBefore?.perEpoch ?? 0) ? 'perEpoch' : 'perRelease';
      const taken = units.counters.take();
      write = {
        unit,
        count: taken.count,
        dropped,
        expireBefore: taken.expireBefore,
        // the policy's epoch: of the clock (epochDays) or of the rewards offered (epochRounds)
        openEpoch: learned ? (p.privacy().epoch?.current ?? units.epochAt(now)) : null,
        releaseBefore: closed,
      };
    }
    const rounds = this.rounds + (learned ? 1 : 0);
    const release =
      p.privacy().releases === before
        ? null
        : (closing ?? stepRelease(p, before, this.version + 1, rounds, this.ctx.snapshotKey));
    const outcome = await this.ctx.store.recordReward(
      { ...rewardInput(this.row, eventId, reward, now, source), ...(unit !== null ? { unit } : {}) },
      release,
      write,
    );
    if (outcome !== 'recorded') {
      // another writer got there first (not possible with one server per database): state is stale
      throw outcome === 'duplicate' ? duplicateReward(eventId) : eventNotFound(this.row.name, eventId);
    }
    this.unconfirmed = false;
    this.rounds = rounds;
    if (release !== null) {
      this.version = release.version;
      this.ctx.metrics.releases.inc({ model: this.row.name });
    }
    return { released: release !== null, dropped };
  }

  /** The model's status: counts from the store, the guarantee from the policy's ledger. */
  status(): Promise<ModelStatus> {
    return this.exclusive(async () =>
      modelStatus(this.row, this.policy, {
        version: this.version,
        rounds: this.rounds,
        counts: await this.ctx.store.counts(this.row.name),
        isPrivate: policyInfo(this.policy.id).isPrivate,
        bounded: this.bounded,
        horizon: this.horizon,
        learning: this.learning,
        clippedFeatures: this.policy.clippedCount + this.clippedExtra,
        unitTotals: this.units === null ? null : await this.ctx.store.unitTotals(this.row.name),
      }),
    );
  }

  /** The releases committed so far, with the guarantee from the ledger. */
  ledger(): Promise<LedgerResponse> {
    return this.exclusive(async () =>
      ledgerResponse(
        this.row,
        await this.ctx.store.ledger(this.row.name),
        this.policy,
        this.units === null ? null : await this.ctx.store.unitTotals(this.row.name),
      ),
    );
  }
}
