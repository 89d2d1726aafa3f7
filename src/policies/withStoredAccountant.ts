import type { PolicyId } from './Policy.js';
import { DEFAULT_ACCOUNTANT, paperAccountant } from './policyInfo.js';

/**
 * Options of a policy as stored (a saved snapshot's config, a service's model row) with the
 * `accountant` made explicit: a private policy whose stored options name none was written before
 * the option existed, so it was calibrated by the paper's accountant ('zcdp', Amp's 'rdp'); `fresh`
 * options (a model being created) get today's default instead, so that what is stored never
 * depends on a later default.
 *
 * @example
 * withStoredAccountant('adaprivate-ts', { epsilon: 1 }).accountant; // returns 'zcdp'
 * withStoredAccountant('adaprivate-ts', { epsilon: 1 }, true).accountant; // returns 'exact'
 */
export function withStoredAccountant<T extends object>(
  id: PolicyId,
  options: T,
  fresh = false,
): T & { readonly accountant?: string } {
  const paper = paperAccountant(id);
  if (paper === undefined || (options as { accountant?: unknown }).accountant !== undefined) return options;
  return { ...options, accountant: fresh ? DEFAULT_ACCOUNTANT : paper };
}
