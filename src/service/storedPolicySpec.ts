/**
 * The policy spec of a stored model row: its policy id and options parsed by the policy schema table
 * (`parsePolicySpec`), with the accountant made explicit (`withStoredAccountant`: a row written
 * before the option existed was calibrated by the paper's). A row the table refuses (edited by hand,
 * or written by a newer version) fails here with a message naming the model, instead of a cast
 * letting it through.
 */
import { type PolicySpec, parsePolicyId, parsePolicySpec, withStoredAccountant } from '../policies/index.js';
import type { ModelRow } from '../store/index.js';

/**
 * @example
 * storedPolicySpec(row).id; // returns 'adaprivate-ts' for a row created with that policy
 */
export function storedPolicySpec(row: Pick<ModelRow, 'name' | 'policy' | 'options'>): PolicySpec {
  const where = `model '${row.name}' (stored row)`;
  const id = parsePolicyId(row.policy, where);
  return parsePolicySpec(id, withStoredAccountant(id, row.options), where);
}
