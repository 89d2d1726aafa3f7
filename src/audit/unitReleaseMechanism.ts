/**
 * A private policy as a mechanism under test on the data of one unit-level audit
 * ({@link UnitRewards}): release mode over several releases. Each run builds a fresh policy (d = 1,
 * feature x = 1 every round, exploration seeded per run; the noise secure, the production sampler,
 * unless `noiseSeed` asks for seeded streams, as in the event-level release mode), feeds it the
 * rewards with their units, and records after every release the released reward sum b_r - b_{r-1}
 * recovered from the released estimate: theta_r (lambda + n_r) with n_r the rewards learned so far
 * (public: which rewards are kept depends on the units only) and the prior mean 0, so the output
 * is the vector of the releases' noisy sums (independent noise, the statistic the tester projects).
 * The claim is the policy's own ledger after the run (user-level for `privacyUnit: 'user'`).
 */
import { createPolicy } from '../policies/createPolicy.js';
import type { Policy, PolicyId } from '../policies/Policy.js';
import { parsePolicySpec } from '../policies/parsePolicySpec.js';
import { policyInfo } from '../policies/policyInfo.js';
import type { AuditClaim, AuditMechanism } from './AuditRoles.js';
import type { UnitRewards } from './unitNeighbours.js';

/**
 * The unit-level release mechanism of an AdaPrivate policy (the batched family: one release per B
 * kept rewards). `policyOptions` must fix `batchSize` and may set `privacyUnit`, the bounds, the
 * budget and `lambda` (default 1).
 *
 * @example
 * const mech = policyUnitReleaseMechanism('adaprivate-ts', { policyOptions: { epsilon: 1, batchSize: 4, privacyUnit: 'user', releasesPerEpoch: 1 } });
 * mech.run(unitNeighbours({ batchSize: 4, contributionsPerRelease: 1, releasesPerEpoch: 1 }).a, 0).length; // returns 2 (two releases)
 */
export function policyUnitReleaseMechanism(
  id: PolicyId,
  opts: {
    readonly policyOptions: Readonly<Record<string, unknown>>;
    readonly seed?: number;
    /** Base of per-run seeded noise streams (research mode); default none: the policy's secure noise. */
    readonly noiseSeed?: number;
  },
): AuditMechanism<UnitRewards> {
  const info = policyInfo(id);
  if (!info.isPrivate) throw new RangeError(`audit: policy '${id}' is not private; nothing to audit.`);
  if (!id.startsWith('adaprivate')) {
    throw new RangeError(
      `audit: --unit user audits the batched AdaPrivate policies (one release per batch). Got '${id}'.`,
    );
  }
  const lambda = (opts.policyOptions.lambda as number | undefined) ?? 1;
  const x = Float64Array.of(1);
  const est = new Float64Array(1);
  let last: AuditClaim | null = null;
  const run = (data: UnitRewards, index: number): Float64Array => {
    const seed = (opts.seed ?? 1) * 1_000_003 + index;
    const o: Record<string, unknown> = { horizon: data.rewards.length, ...opts.policyOptions, dim: 1, seed };
    if (opts.noiseSeed !== undefined && info.options.includes('noiseSeed')) {
      o.noiseSeed = opts.noiseSeed * 1_000_003 + index;
    }
    const spec = parsePolicySpec(id, o, 'audit');
    const p = createPolicy(spec.id, spec.options);
    const sums: number[] = [];
    let releases = 0;
    let previous = 0;
    const record = () => {
      const r = p.privacy().releases;
      if (r === releases) return;
      releases = r;
      (p as Policy & { estimate(out: Float64Array): void }).estimate(est);
      const b = est[0]! * (lambda + p.roundsLearned);
      sums.push(b - previous);
      previous = b;
    };
    for (let t = 0; t < data.rewards.length; t++) {
      p.select(x, 1);
      p.update(data.rewards[t]!, data.units[t]);
      record();
    }
    p.finish();
    record();
    const s = p.privacy();
    last = { epsilon: s.epsilon, delta: s.delta, rho: s.rho };
    return Float64Array.from(sums);
  };
  return {
    name: `${id}: every release of a run with units (d = 1)`,
    run,
    claim: () => {
      if (last === null) throw new Error('audit: the claim is known after the first run.');
      return last;
    },
  };
}
