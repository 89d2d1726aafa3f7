/**
 * `audit`: the empirical privacy audit of a private policy (docs/audit.md). It runs the policy's
 * release mechanism ('release' mode) or a whole run ('actions' mode) on two reward sequences that
 * differ in one reward, many times, and reports a lower bound on the epsilon actually provided
 * next to the epsilon the policy's ledger claims.
 */
import type { PolicyId } from '../policies/Policy.js';
import { isPolicyId, policyInfo } from '../policies/policyInfo.js';
import { type AuditReport, auditMechanism } from './auditMechanism.js';
import { policyActionsMechanism, policyReleaseMechanism, releaseRounds } from './policyMechanisms.js';
import { rewardNeighbours } from './rewardNeighbours.js';
import { unitNeighbours } from './unitNeighbours.js';
import { policyUnitReleaseMechanism } from './unitReleaseMechanism.js';

/** Options of {@link audit}. */
export interface AuditOptions {
  /** A private policy id, e.g. 'adaprivate-ts'. */
  readonly policy: PolicyId;
  /** The budget the policy is built with (one of epsilon or rho; default epsilon 1). */
  readonly epsilon?: number;
  readonly rho?: number;
  /** delta of the policy and of the bound; default 1e-5. */
  readonly delta?: number;
  /** 'release' (default): one release; 'actions': the actions of a whole run. */
  readonly mode?: 'release' | 'actions';
  /** Runs per input; default 50000 ('release') or 2000 ('actions'). */
  readonly samples?: number;
  /** Seed of the runs' exploration and of the fixed public inputs; default 1. */
  readonly seed?: number;
  /**
   * Seed of reproducible noise streams (research mode). Default: none, and the audit runs the
   * production sampler (secure noise: the exact discrete Gaussian), which is what deployments use.
   */
  readonly noiseSeed?: number;
  /** Probability that the lower bound holds; default 0.95. */
  readonly confidence?: number;
  /** See AuditRunOptions.method; default 'auto'. */
  readonly method?: 'auto' | 'gdp' | 'threshold';
  /**
   * The protected unit of the neighbouring pair: 'event' (default: one reward differs) or 'user'
   * (every reward of one unit differs, `unitNeighbours`; release mode over m + 1 releases of an
   * AdaPrivate policy built with `privacyUnit: 'user'` unless `policyOptions` says otherwise).
   */
  readonly unit?: 'event' | 'user';
  /** unit 'user': the policy's bound c (default 1). */
  readonly contributionsPerRelease?: number;
  /** unit 'user': the policy's bound m (default 2). */
  readonly releasesPerEpoch?: number;
  /** More policy options (batchSize, q, horizon, ...). */
  readonly policyOptions?: Readonly<Record<string, unknown>>;
  readonly onProgress?: (done: number, total: number) => void;
}

/** The report of {@link audit}: an AuditReport plus what was audited. */
export interface PolicyAuditReport extends AuditReport {
  readonly policy: PolicyId;
  readonly mode: 'release' | 'actions';
  /** The budget the policy was configured with. */
  readonly budgetEpsilon: number | null;
  readonly seed: number;
  /** Where the audited noise came from: 'secure' (the production sampler) or 'seeded' (`noiseSeed`). */
  readonly noise: 'secure' | 'seeded';
  /** The noise seed when `noise` is 'seeded', else null. */
  readonly noiseSeed: number | null;
  /** The protected unit of the neighbouring pair ('event' unless `unit: 'user'` was asked for). */
  readonly unit: 'event' | 'user';
}

/**
 * Audits a private policy.
 *
 * @example
 * const r = audit({ policy: 'adaprivate-ts', epsilon: 1 });
 * r.claim.epsilon; // returns 1
 * r.lowerBound; // returns ~0.9: not refuted (the exact accountant calibrates the release to epsilon 1)
 */
export function audit(options: AuditOptions): PolicyAuditReport {
  const id = options.policy;
  if (!isPolicyId(id)) throw new RangeError(`audit: unknown policy ${JSON.stringify(id)}.`);
  if (!policyInfo(id).isPrivate)
    throw new RangeError(`audit: policy '${id}' is not private; nothing to audit.`);
  const mode = options.mode ?? 'release';
  if (mode !== 'release' && mode !== 'actions') {
    throw new RangeError(`audit: mode must be 'release' or 'actions'. Got ${JSON.stringify(mode)}.`);
  }
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`audit: seed must be a non-negative safe integer. Got ${seed}.`);
  }
  const noiseSeed = options.noiseSeed;
  if (noiseSeed !== undefined && (!Number.isSafeInteger(noiseSeed) || noiseSeed < 0)) {
    throw new RangeError(`audit: noiseSeed must be a non-negative safe integer. Got ${noiseSeed}.`);
  }
  const noise = noiseSeed === undefined ? {} : { noiseSeed };
  const budget: Record<string, unknown> =
    options.rho !== undefined ? { rho: options.rho } : { epsilon: options.epsilon ?? 1 };
  const policyOptions: Record<string, unknown> = {
    ...budget,
    delta: options.delta ?? 1e-5,
    ...(id === 'adaprivate-ts-amp' ? { orders: 'paper' } : {}),
    ...options.policyOptions,
  };
  const samples = options.samples ?? (mode === 'release' ? 50000 : 2000);
  const run = {
    samples,
    ...(options.confidence !== undefined ? { confidence: options.confidence } : {}),
    ...(options.method !== undefined ? { method: options.method } : {}),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
  };
  let report: AuditReport;
  const unit = options.unit ?? 'event';
  if (unit !== 'event' && unit !== 'user') {
    throw new RangeError(`audit: unit must be 'event' or 'user'. Got ${JSON.stringify(unit)}.`);
  }
  if (unit === 'user') {
    if (mode !== 'release') throw new RangeError("audit: unit 'user' audits release mode only.");
    const c = options.contributionsPerRelease ?? 1;
    const m = options.releasesPerEpoch ?? 2;
    // an event-level policy (policyOptions.privacyUnit 'event') takes no bounds: audited on the same
    // pair, its per-reward claim is what group privacy would have to stretch over the whole unit
    const eventLevel = policyOptions.privacyUnit === 'event';
    const unitOptions: Record<string, unknown> = {
      batchSize: 4,
      ...(eventLevel ? {} : { privacyUnit: 'user', contributionsPerRelease: c, releasesPerEpoch: m }),
      ...policyOptions,
    };
    const mech = policyUnitReleaseMechanism(id, { policyOptions: unitOptions, seed, ...noise });
    const pair = unitNeighbours({
      batchSize: unitOptions.batchSize as number,
      contributionsPerRelease: c,
      releasesPerEpoch: m,
      seed,
    });
    report = auditMechanism(mech, pair, run);
    return {
      ...report,
      policy: id,
      mode,
      budgetEpsilon: typeof policyOptions.epsilon === 'number' ? policyOptions.epsilon : null,
      seed,
      noise: noiseSeed === undefined ? 'secure' : 'seeded',
      noiseSeed: noiseSeed ?? null,
      unit,
    };
  }
  if (mode === 'release') {
    const mech = policyReleaseMechanism(id, { policyOptions, seed, ...noise });
    report = auditMechanism(mech, rewardNeighbours(releaseRounds(id, policyOptions), 0, 0.5), run);
  } else {
    const mech = policyActionsMechanism(id, { policyOptions, seed, ...noise, scenario: { armSeed: seed } });
    report = auditMechanism(mech, rewardNeighbours(mech.rounds, 0, 'random', seed), run);
  }
  return {
    ...report,
    policy: id,
    mode,
    budgetEpsilon: typeof policyOptions.epsilon === 'number' ? policyOptions.epsilon : null,
    seed,
    noise: noiseSeed === undefined ? 'secure' : 'seeded',
    noiseSeed: noiseSeed ?? null,
    unit,
  };
}
