/**
 * The user-level part of a private policy configured with `privacyUnit: 'user'` (docs/privacy.md
 * "Privacy units"): it admits or drops each reward by the one contribution-bound rule
 * (`admitContribution`), keeps the units' counts in a pluggable {@link UnitCounterStore}, forces a
 * release at an epoch boundary (a release never holds data of two epochs), counts the dropped
 * rewards, keeps the {@link UnitLedger} of releases per epoch and reports the per-epoch and
 * cumulative guarantees of one unit from it.
 *
 * The guarantee: the noise std sigma of each release is calibrated so that m releases of L2
 * sensitivity c (a unit's at most c rewards of norm-1 features and rewards in [0, 1]) meet the
 * target (`unitNoise`). A unit takes part in at most min(m, R_e) releases of epoch e, so the per-epoch
 * loss is that of min(m, R_e) compositions and the loss over the epochs so far that of
 * sum_e min(m, R_e) compositions (`unitPlanEpsilon`).
 */

import { calibrateGaussian } from '../mechanisms/index.js';
import type { Admission, UnitCount } from '../privacy/admitContribution.js';
import { admitContribution } from '../privacy/admitContribution.js';
import { describeEpoch, type EpochSpec, epochIndex } from '../privacy/epochIndex.js';
import { type AccountantName, gaussianPlanEpsilon } from '../privacy/index.js';
import { MemoryUnitCounters } from '../privacy/MemoryUnitCounters.js';
import type { UnitCounterStore } from '../privacy/UnitCounterStore.js';
import { UnitLedger } from '../privacy/UnitLedger.js';
import type { BudgetConfig } from './PolicyOptions.js';

/** The accountant behind a user-level guarantee (the one calibrator's, contract C1). */
export type UnitAccountant = AccountantName;

/** One release's noise as the unit guarantee needs it. */
export interface UnitReleaseNoise {
  /** Noise standard deviation (absolute). */
  readonly sigma: number;
  /** Poisson sampling rate of units (1: none). */
  readonly q: number;
  /** The accountant that calibrated it (and reports it). */
  readonly accountant: UnitAccountant;
}

/** A (epsilon, delta) guarantee with its composition count. */
export interface UnitGuarantee {
  readonly epsilon: number;
  readonly delta: number;
  /** zCDP rho, or null with RDP accounting. */
  readonly rho: number | null;
  /** Compositions of one release the figure is for. */
  readonly compositions: number;
}

/** What `privacy()` adds for a user-level policy. */
export interface UserLevelReport {
  readonly unit: 'user';
  readonly bounds: { readonly contributionsPerRelease: number; readonly releasesPerEpoch: number };
  readonly epoch: {
    readonly kind: EpochSpec['kind'];
    readonly days?: number;
    readonly rounds?: number;
    /** Index of the epoch of the last reward offered (0 before any). */
    readonly current: number;
    /** Epochs that made at least one release. */
    readonly withReleases: number;
  };
  /** The worst epoch so far (at most the target: calibrated for m compositions). */
  readonly perEpoch: UnitGuarantee;
  /** Over every epoch so far (composition across epochs). */
  readonly cumulative: UnitGuarantee;
  /**
   * The epoch of the latest release (the data it held) and one unit's guarantee in that epoch so
   * far (min(m, its releases) compositions); null before the first release. Each ledger row of the
   * service keeps it: the dashboard draws the budget per epoch from these.
   */
  readonly releaseEpoch: {
    readonly index: number;
    readonly releases: number;
    readonly guarantee: UnitGuarantee;
  } | null;
  /** Rewards acknowledged but not learned, by the bound that dropped them. */
  readonly dropped: { readonly perRelease: number; readonly perEpoch: number; readonly total: number };
  /** Rewards offered (kept + dropped). */
  readonly offered: number;
  readonly accountant: UnitAccountant;
}

/** Per-unit state saved in the policy snapshot. */
export interface UserLevelState {
  /** The counts (memory counters), or null when they live in a store. */
  readonly counters: unknown;
  readonly ledger: readonly (readonly [number, number])[];
  readonly dropped: readonly [number, number];
  readonly offered: number;
  /** Epoch of the data in the open release (-1: nothing admitted yet). */
  readonly openEpoch: number;
  /** Releases the ledger held when last noted. */
  readonly noted: number;
  /** Epoch of the last reward offered. */
  readonly currentEpoch: number;
}

/** The bounds and epoch of a user-level config. */
export interface UnitSettings {
  readonly c: number;
  readonly m: number;
  readonly epoch: EpochSpec;
}

/** The unit settings of a private policy's config, or null for event-level configs. */
export function unitSettings(config: BudgetConfig): UnitSettings | null {
  if (config.privacyUnit !== 'user') return null;
  const epoch: EpochSpec =
    config.epochDays !== undefined
      ? { kind: 'days', days: config.epochDays }
      : config.epochRounds !== undefined
        ? { kind: 'rounds', rounds: config.epochRounds }
        : { kind: 'lifetime' };
  return { c: config.contributionsPerRelease ?? 1, m: config.releasesPerEpoch as number, epoch };
}

/**
 * The noise std of each release of a user-level policy, from the one calibrator
 * (src/mechanisms/calibrate.ts over contract C1): the multiplier calibrated for m releases (units
 * Poisson-sampled at rate q) under `accountant`, times the release sensitivity c. With 'zcdp':
 * sigma = c sqrt(m / (2 rho)).
 *
 * @example
 * unitNoise({ rho: 0.5, delta: 1e-5 }, { c: 1, m: 4, epoch: { kind: 'lifetime' } }, 1, 'zcdp').sigma; // returns 2
 */
export function unitNoise(
  config: BudgetConfig,
  unit: UnitSettings,
  q: number,
  accountant: UnitAccountant,
  orders: 'paper' | 'extended' = 'extended',
  conversion: 'classic' | 'improved' = 'classic',
): { readonly sigma: number; readonly accountant: UnitAccountant; readonly order: number | null } {
  const cal = calibrateGaussian('user-level noise', config, { compositions: unit.m, q }, accountant, {
    orders,
    conversion,
  });
  return { sigma: cal.sigma(unit.c), accountant, order: cal.order };
}

/**
 * The guarantee of `compositions` releases of sensitivity c at noise std sigma (rate q) at `delta`,
 * from the one accountant (`gaussianPlanEpsilon`); rho = k c^2 / (2 sigma^2) with 'zcdp'.
 *
 * @example
 * unitPlanEpsilon(2, 1, 4, 1, 1e-5, 'zcdp', 'extended', 'classic').rho; // returns 0.5
 */
export function unitPlanEpsilon(
  sigma: number,
  c: number,
  compositions: number,
  q: number,
  delta: number,
  accountant: UnitAccountant,
  orders: 'paper' | 'extended',
  conversion: 'classic' | 'improved',
): UnitGuarantee {
  if (compositions === 0) return { epsilon: 0, delta, rho: 0, compositions };
  const g = gaussianPlanEpsilon(
    sigma,
    { sensitivity: c, compositions, q },
    delta,
    accountant,
    accountant === 'rdp'
      ? { orders, conversion }
      : { conversion: accountant === 'zcdp' ? 'classic' : conversion },
  );
  const rho = accountant === 'zcdp' ? (compositions * c * c) / (2 * sigma * sigma) : null;
  return { epsilon: g.epsilon, delta, rho, compositions };
}

/** 3 significant digits; below 1e-3 in exponent form ('1e-5', '2.5e-7'). */
function short(x: number): string {
  if (x !== 0 && Math.abs(x) < 1e-3) {
    const [m, e] = x.toExponential(2).split('e');
    return `${Number.parseFloat(m as string).toString()}e${Number.parseInt(e as string, 10)}`;
  }
  return Number.parseFloat(x.toPrecision(3)).toString();
}

/** "user-level (eps 1, delta 1e-5) per 30-day epoch, for users contributing ..." */
export function userLevelStatement(r: UserLevelReport): string {
  const { contributionsPerRelease: c, releasesPerEpoch: m } = r.bounds;
  const per = r.epoch.kind === 'lifetime' ? 'over the lifetime (one epoch)' : `per ${describeEpochOf(r)}`;
  const bounds = `for users contributing at most ${c} reward${c === 1 ? '' : 's'} per release and ${m} release${m === 1 ? '' : 's'} per ${r.epoch.kind === 'lifetime' ? 'lifetime' : 'epoch'}`;
  const head = `user-level (eps ${short(r.perEpoch.epsilon)}, delta ${short(r.perEpoch.delta)}) ${per}, ${bounds}`;
  const cum =
    r.epoch.kind === 'lifetime'
      ? ''
      : `; cumulative over the ${r.epoch.withReleases} epoch${r.epoch.withReleases === 1 ? '' : 's'} with releases so far: (eps ${short(r.cumulative.epsilon)}, delta ${short(r.cumulative.delta)})`;
  const dropped = `; ${r.dropped.total} of ${r.offered} reward${r.offered === 1 ? '' : 's'} dropped by the bounds (${r.dropped.perRelease} per release, ${r.dropped.perEpoch} per epoch)`;
  return `${head}${cum}${dropped}. Protects all rewards of one unit; features, chosen arms and stored decisions are not protected.`;
}

function describeEpochOf(r: UserLevelReport): string {
  const e = r.epoch;
  return describeEpoch(
    e.kind === 'days'
      ? { kind: 'days', days: e.days as number }
      : e.kind === 'rounds'
        ? { kind: 'rounds', rounds: e.rounds as number }
        : { kind: 'lifetime' },
  );
}

/** The words of an event-level guarantee (private policies). */
export const EVENT_LEVEL_STATEMENT =
  'event-level: protects one reward; features, chosen arms and stored decisions are not protected, and a person with k rewards is protected only by group privacy (k^2 rho).';

/** The words of a non-private policy. */
export const NON_PRIVATE_STATEMENT = 'non-private: nothing is protected.';

export class UserLevelPrivacy {
  readonly settings: UnitSettings;
  private counters: UnitCounterStore = new MemoryUnitCounters();
  private readonly ledger: UnitLedger;
  private droppedRelease = 0;
  private droppedEpoch = 0;
  private offered = 0;
  private openEpoch = -1;
  private currentEpoch = 0;
  private noted = 0;
  clock: () => number = Date.now;

  constructor(settings: UnitSettings) {
    this.settings = settings;
    this.ledger = new UnitLedger(settings.m);
  }

  /** Replaces the counter store (the service's store-backed counts); the old counts are dropped. */
  useCounters(counters: UnitCounterStore): void {
    this.counters = counters;
  }

  /** The epoch of the next reward (reads the clock for epochDays). */
  epochNow(): number {
    return epochIndex(
      this.settings.epoch,
      this.settings.epoch.kind === 'days' ? this.clock() : 0,
      this.offered,
    );
  }

  /** True when the open release holds data of an epoch other than `epoch` (it must be released first). */
  mustCloseBefore(epoch: number): boolean {
    return this.openEpoch >= 0 && this.openEpoch !== epoch;
  }

  /**
   * Decides on one reward of `unit` for the open release `release` in `epoch`. `draw` is called
   * once when the unit joins a subsampled release (returns whether the unit is in the sample).
   * Returns the admission and, when kept, whether the reward enters the (subsampled) sum.
   */
  admit(
    unit: string,
    epoch: number,
    release: number,
    draw: (() => boolean) | null,
  ): { readonly admission: Admission; readonly sampled: boolean } {
    if (epoch > this.currentEpoch) {
      this.counters.expireBefore(epoch);
      this.currentEpoch = epoch;
    }
    this.offered++;
    const s = this.settings;
    const r = admitContribution(this.counters.get(unit), epoch, release, {
      contributionsPerRelease: s.c,
      releasesPerEpoch: s.m,
    });
    if (r.admission === 'perRelease') this.droppedRelease++;
    else if (r.admission === 'perEpoch') this.droppedEpoch++;
    if (r.next === null) return { admission: r.admission, sampled: false };
    let next: UnitCount = r.next;
    if (draw !== null && r.joins) {
      // drawn even when the store recalls a draw: a seeded stream stays where a run without the
      // restart would have it (the recalled draw then equals it); secure draws are independent
      const fresh = draw();
      next = { ...next, sampled: this.counters.drawn?.(unit, release) ?? fresh };
    }
    this.counters.set(unit, next);
    this.openEpoch = epoch;
    return { admission: 'kept', sampled: next.sampled ?? true };
  }

  /**
   * A restart of a store-backed policy (the service): `perRelease` + `perEpoch` rewards were dropped
   * since the snapshot the policy was restored from. They are not replayed (only kept rewards are),
   * so they are counted here, as offered and dropped: the offered count (what `epochRounds`
   * measures) and the dropped counts are then those of a run that never restarted.
   */
  resumeDropped(perRelease: number, perEpoch: number): void {
    for (const [v, name] of [
      [perRelease, 'perRelease'],
      [perEpoch, 'perEpoch'],
    ] as const) {
      if (!Number.isSafeInteger(v) || v < 0)
        throw new RangeError(`resumeDropped: ${name} must be an integer >= 0. Got ${v}.`);
    }
    this.droppedRelease += perRelease;
    this.droppedEpoch += perEpoch;
    this.offered += perRelease + perEpoch;
  }

  /** The ledger now holds `releases` releases: the new ones held data of the open epoch. */
  noteReleases(releases: number): void {
    for (; this.noted < releases; this.noted++) this.ledger.record(Math.max(0, this.openEpoch));
  }

  /** After a release made at an epoch boundary: nothing of the old epoch is open any more. */
  closedOpenRelease(): void {
    this.openEpoch = -1;
  }

  report(
    noise: UnitReleaseNoise,
    delta: number,
    accountant: UnitAccountant,
    orders: 'paper' | 'extended',
    conversion: 'classic' | 'improved',
  ): UserLevelReport {
    const s = this.settings;
    const k = this.ledger.compositions();
    const memo = new Map<number, UnitGuarantee>();
    const g = (n: number): UnitGuarantee => {
      let out = memo.get(n);
      if (out === undefined) {
        out = unitPlanEpsilon(noise.sigma, s.c, n, noise.q, delta, accountant, orders, conversion);
        memo.set(n, out);
      }
      return out;
    };
    const latest = this.ledger.latest();
    const e = s.epoch;
    return {
      unit: 'user',
      bounds: { contributionsPerRelease: s.c, releasesPerEpoch: s.m },
      epoch: {
        kind: e.kind,
        ...(e.kind === 'days' ? { days: e.days } : {}),
        ...(e.kind === 'rounds' ? { rounds: e.rounds } : {}),
        current: this.currentEpoch,
        withReleases: k.epochs,
      },
      perEpoch: g(k.perEpoch),
      cumulative: g(k.cumulative),
      releaseEpoch:
        latest === null
          ? null
          : {
              index: latest.epoch,
              releases: latest.releases,
              guarantee: g(Math.min(s.m, latest.releases)),
            },
      dropped: {
        perRelease: this.droppedRelease,
        perEpoch: this.droppedEpoch,
        total: this.droppedRelease + this.droppedEpoch,
      },
      offered: this.offered,
      accountant,
    };
  }

  toJSON(): UserLevelState {
    return {
      counters: this.counters.toJSON(),
      ledger: this.ledger.toJSON(),
      dropped: [this.droppedRelease, this.droppedEpoch],
      offered: this.offered,
      openEpoch: this.openEpoch,
      noted: this.noted,
      currentEpoch: this.currentEpoch,
    };
  }

  load(json: unknown, where: string): void {
    const st = json as Partial<UserLevelState> | null;
    if (typeof st !== 'object' || st === null) throw new RangeError(`${where} must be an object.`);
    const nat = (v: unknown, name: string, min = 0): number => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
        throw new RangeError(`${where}.${name} must be an integer >= ${min}. Got ${String(v)}.`);
      }
      return v;
    };
    const d = st.dropped;
    if (!Array.isArray(d) || d.length !== 2)
      throw new RangeError(`${where}.dropped must be [perRelease, perEpoch].`);
    const dr = nat(d[0], 'dropped[0]');
    const de = nat(d[1], 'dropped[1]');
    const offered = nat(st.offered, 'offered');
    const openEpoch = nat(st.openEpoch, 'openEpoch', -1);
    const noted = nat(st.noted, 'noted');
    const current = nat(st.currentEpoch, 'currentEpoch');
    this.ledger.load(st.ledger);
    if (st.counters !== null) this.counters.load(st.counters);
    this.droppedRelease = dr;
    this.droppedEpoch = de;
    this.offered = offered;
    this.openEpoch = openEpoch;
    this.noted = noted;
    this.currentEpoch = current;
  }
}
