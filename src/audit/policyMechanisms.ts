/**
 * A private policy as a mechanism under test, in two modes:
 * - 'release': one release of the policy's mechanism on a dataset that fits in one release (one
 *   batch of an AdaPrivate policy, one episode of AdaC-OFUL / RarelySwitching / zCDP-Episodic,
 *   one step of DGS-LinUCB, the first tree node of JDP-LinUCB), d = 1 and the public feature
 *   x = 1 every round; the output is the released statistic the policy acts on.
 * - 'actions': a whole run (K arms, d = 2, fixed public arms); the output is the sequence of
 *   actions (one-hot, T x K). It audits everything the policy reveals through its decisions, so a
 *   raw reward that leaks into a decision shows up here.
 * Each run builds a fresh policy: its exploration seed is derived from the run's index. Its noise is
 * the production sampler (secure: the exact discrete Gaussian from the platform's secure source,
 * or Amp's float sampler) unless `noiseSeed` asks for a seeded stream (research mode: the audit is
 * then reproducible, but it audits the continuous normals of the seeded stream, not the sampler
 * that deployments use). The claim is what the policy's own ledger reports after a run.
 */
import { createPolicy } from '../policies/createPolicy.js';
import { decodeFloat64Array } from '../policies/float64Codec.js';
import type { Policy, PolicyId } from '../policies/Policy.js';
import { parsePolicySpec } from '../policies/parsePolicySpec.js';
import { policyInfo } from '../policies/policyInfo.js';
import { createRng } from '../random/index.js';
import type { AuditClaim, AuditMechanism } from './AuditRoles.js';

/** How a policy mechanism is built. */
export interface PolicyMechanismOptions {
  /** Options passed to `createPolicy` (budget, horizon, batchSize, q, ...); dim and seed are set here. */
  readonly policyOptions: Readonly<Record<string, unknown>>;
  /** Base of the per-run exploration seeds; default 1. */
  readonly seed?: number;
  /**
   * Base of per-run seeded noise streams (research mode, reproducible); default: none, the
   * policy's secure noise (what production uses).
   */
  readonly noiseSeed?: number;
}

/** The statistic a policy acts on after the release: the released estimate (or JDP's noisy u). */
function releasedStatistic(p: Policy): Float64Array {
  const withEstimate = p as Policy & { estimate?: (out: Float64Array) => void };
  if (typeof withEstimate.estimate === 'function') {
    const out = new Float64Array(p.config.dim as number);
    withEstimate.estimate(out);
    return out;
  }
  const own = (p.snapshot().state as { own: Record<string, unknown> }).own;
  const field = p.id === 'jdp-linucb' ? 'uNoisy' : 'theta';
  const text = own[field];
  if (typeof text !== 'string') throw new Error(`audit: ${p.id} exposes no released statistic '${field}'.`);
  return decodeFloat64Array(text);
}

function claimOf(p: Policy): AuditClaim {
  const s = p.privacy();
  return { epsilon: s.epsilon, delta: s.delta, rho: s.rho };
}

function build(id: PolicyId, opts: PolicyMechanismOptions, dim: number, index: number): Policy {
  const seed = (opts.seed ?? 1) * 1_000_003 + index;
  const o: Record<string, unknown> = { ...opts.policyOptions, dim, seed };
  if (opts.noiseSeed !== undefined && policyInfo(id).options.includes('noiseSeed')) {
    o.noiseSeed = opts.noiseSeed * 1_000_003 + index;
  }
  const spec = parsePolicySpec(id, o, 'audit');
  return createPolicy(spec.id, spec.options);
}

/** Rounds of data that one release of `id` reads in release mode. */
export function releaseRounds(id: PolicyId, policyOptions: Readonly<Record<string, unknown>>): number {
  if (id.startsWith('adaprivate')) return (policyOptions.batchSize as number | undefined) ?? 4;
  return 1;
}

/**
 * Release mode: the data are the rewards of `releaseRounds(id)` rounds (feature x = 1, d = 1); the
 * output is the released statistic after the release.
 */
export function policyReleaseMechanism(
  id: PolicyId,
  opts: PolicyMechanismOptions,
): AuditMechanism<Float64Array> {
  if (!policyInfo(id).isPrivate)
    throw new RangeError(`audit: policy '${id}' is not private; nothing to audit.`);
  const rounds = releaseRounds(id, opts.policyOptions);
  const policyOptions = id.startsWith('adaprivate')
    ? { horizon: rounds, ...opts.policyOptions, batchSize: rounds }
    : { horizon: 1000, ...opts.policyOptions };
  const o = { ...opts, policyOptions };
  const x = Float64Array.of(1);
  let last: AuditClaim | null = null;
  const run = (data: Float64Array, index: number): Float64Array => {
    const p = build(id, o, 1, index);
    for (let t = 0; t < data.length; t++) {
      p.select(x, 1);
      p.update(data[t]!);
    }
    // DGS-LinUCB releases its estimate when an action needs it; the others release by now or at finish
    if (policyInfo(id).releasesAtSelect) p.select(x, 1);
    else p.finish();
    // one release of the same configuration in every run (public inputs fixed): its ledger is read once
    last ??= claimOf(p);
    return releasedStatistic(p);
  };
  return {
    name: `${id}: one release (${rounds} round${rounds === 1 ? '' : 's'}, d = 1)`,
    run,
    claim: () => {
      if (last === null) run(new Float64Array(rounds), 0);
      return last!;
    },
  };
}

/** Shape of an actions-mode run. */
export interface ActionsScenario {
  /** Rounds T; default 60. */
  readonly rounds?: number;
  /** Arms K per round; default 3. */
  readonly arms?: number;
  /** Dimension d; default 2. */
  readonly dim?: number;
  /** Seed of the public arms; default 7. */
  readonly armSeed?: number;
}

/** K unit-norm arms per round from stream 'audit-arms' (public, fixed for the whole audit). */
function fixedArms(rounds: number, k: number, d: number, seed: number): Float64Array {
  const rng = createRng(seed, 'audit-arms');
  const f = new Float64Array(rounds * k * d);
  for (let a = 0; a < rounds * k; a++) {
    let n2 = 0;
    for (let i = 0; i < d; i++) {
      const v = rng.normal();
      f[a * d + i] = v;
      n2 += v * v;
    }
    for (let i = 0; i < d; i++) f[a * d + i] = f[a * d + i]! / Math.sqrt(n2);
  }
  return f;
}

/**
 * Actions mode: the data are the rewards of T rounds; the output is the one-hot sequence of the
 * T actions (length T K). `decide` lets a test wrap the policy's choice (to build a broken policy).
 */
export function policyActionsMechanism(
  id: PolicyId,
  opts: PolicyMechanismOptions & { readonly scenario?: ActionsScenario },
  decide?: (policy: Policy, features: Float64Array, k: number, history: readonly number[]) => number,
): AuditMechanism<Float64Array> & { readonly rounds: number } {
  if (!policyInfo(id).isPrivate)
    throw new RangeError(`audit: policy '${id}' is not private; nothing to audit.`);
  const sc = opts.scenario ?? {};
  const rounds = sc.rounds ?? 60;
  const k = sc.arms ?? 3;
  const d = sc.dim ?? 2;
  const arms = fixedArms(rounds, k, d, sc.armSeed ?? 7);
  const policyOptions = {
    horizon: rounds,
    ...(id.startsWith('adaprivate') ? { batchSize: 5 } : {}),
    ...opts.policyOptions,
  };
  const o = { ...opts, policyOptions };
  let last: AuditClaim | null = null;
  const run = (data: Float64Array, index: number): Float64Array => {
    if (data.length !== rounds)
      throw new RangeError(`audit: actions mode needs ${rounds} rewards. Got ${data.length}.`);
    const p = build(id, o, d, index);
    const out = new Float64Array(rounds * k);
    const history: number[] = [];
    for (let t = 0; t < rounds; t++) {
      const f = arms.subarray(t * k * d, (t + 1) * k * d);
      const a = decide === undefined ? p.select(f, k) : decide(p, f, k, history);
      out[t * k + a] = 1;
      p.update(data[t]!);
      history.push(data[t]!);
    }
    p.finish();
    last = claimOf(p);
    return out;
  };
  return {
    name: `${id}: actions of a run (T = ${rounds}, K = ${k}, d = ${d})`,
    rounds,
    run,
    claim: () => {
      if (last === null) run(new Float64Array(rounds), 0);
      return last!;
    },
  };
}
