/**
 * The one parser from untyped input (CLI flags, HTTP bodies, stored model rows, runner cells, audit
 * options, snapshots) to a typed policy spec: a registered policy id and options that the policy
 * schema table accepts. Every edge that carries a policy id and options calls it instead of casting.
 */
import type { PolicyId } from './Policy.js';
import type { PolicyOptionsFor } from './PolicyOptions.js';
import { isPolicyId, policyIds } from './policyInfo.js';
import { resolveConfig } from './resolveConfig.js';

/** A policy id with options valid for it (a discriminated union on `id`). */
export type PolicySpec = {
  readonly [I in PolicyId]: { readonly id: I; readonly options: PolicyOptionsFor<I> };
}[PolicyId];

/** The id of a policy spec is not a registered policy id. */
export class PolicySpecError extends RangeError {
  override readonly name = 'PolicySpecError';
}

/**
 * Checks that `id` names a registered policy (the message lists the known ids), in `where` (e.g.
 * "model row 'news'", "experiment config policies[2]").
 *
 * @example
 * parsePolicyId('adaprivate-ts', 'cli'); // returns 'adaprivate-ts'
 * parsePolicyId('ts', 'cli'); // throws PolicySpecError "cli: unknown policy id "ts". Known ids: ..."
 */
export function parsePolicyId(id: unknown, where: string): PolicyId {
  if (typeof id === 'string' && isPolicyId(id)) return id;
  throw new PolicySpecError(
    `${where}: unknown policy id ${JSON.stringify(id) ?? String(id)}. Known ids: ${policyIds.join(', ')}.`,
  );
}

/**
 * Parses a policy id and its options from untyped input. The options are checked by the policy's
 * schema (`resolveConfig`: names, domains, required ones, exactly one of epsilon or rho, ...), whose
 * error (its message names the policy, the option, the value and the rule) is thrown as it is; they
 * are returned as given (not with defaults filled in), typed for that policy.
 *
 * @example
 * const spec = parsePolicySpec('lints', { dim: 2, horizon: 10, seed: 1 }, 'cli');
 * createPolicy(spec.id, spec.options).config.v; // returns 1
 */
export function parsePolicySpec(id: unknown, options: unknown, where: string): PolicySpec {
  const policy = parsePolicyId(id, where);
  // throws resolveConfig's own error (TypeError for a non-object, RangeError for a refused option)
  resolveConfig(policy, options);
  // resolveConfig accepted every option of `options` for `policy`: this is that policy's spec
  return { id: policy, options } as PolicySpec;
}
