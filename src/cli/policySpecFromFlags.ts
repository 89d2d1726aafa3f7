/**
 * The CLI's edge of the one policy parser: a command that builds a policy from its flags puts the
 * values in an untyped options object and calls this, which calls `parsePolicySpec` (the policy
 * schema table) as the HTTP API and stored model rows do. A refused id or option is a `UsageError`
 * whose message is the parser's, after the command's name: the same rule text the service answers in
 * its 400 `invalid_options` (e.g. "run: AdaPrivate-TS: batchSize must be a positive integer. Got 0.").
 */
import { type PolicyId, type PolicySpec, parsePolicyId, parsePolicySpec } from '../policies/index.js';
import { UsageError } from './UsageError.js';

/**
 * @param command - the command's name, which starts the message (e.g. 'run').
 * @param id - the policy id as given (`--policy`).
 * @param options - the options the flags give, untyped.
 * @example
 * policySpecFromFlags('bench', 'lints', { dim: 5, horizon: 100, seed: 1 }).id; // returns 'lints'
 * policySpecFromFlags('bench', 'lints', { dim: 0, horizon: 100, seed: 1 });
 * // throws UsageError 'bench: LinTS: dim must be a positive integer. Got 0.'
 */
export function policySpecFromFlags(command: string, id: unknown, options: unknown): PolicySpec {
  try {
    return parsePolicySpec(id, options, '--policy');
  } catch (err) {
    if (err instanceof RangeError || err instanceof TypeError) {
      throw new UsageError(`${command}: ${err.message}`);
    }
    throw err;
  }
}

/**
 * The policy id of `--policy`, by the same parser (a `UsageError` listing the known ids otherwise).
 *
 * @example
 * policyIdFromFlag('audit', 'ts'); // throws UsageError 'audit: --policy: unknown policy id "ts". Known ids: ...'
 */
export function policyIdFromFlag(command: string, id: unknown): PolicyId {
  try {
    return parsePolicyId(id, '--policy');
  } catch (err) {
    if (err instanceof RangeError) throw new UsageError(`${command}: ${err.message}`);
    throw err;
  }
}
