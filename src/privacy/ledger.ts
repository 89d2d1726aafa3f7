/**
 * PLACEHOLDER (issue 3 replaces this file): the privacy ledger. Only the report type is fixed here
 * so that the policies can be written against it.
 */

/** The guarantee a mechanism has actually spent, computed from its ledger of releases. */
export interface PrivacySpent {
  /** Total zCDP rho, or null when the accounting is RDP-based (subsampled releases). */
  readonly rho: number | null;
  readonly epsilon: number;
  readonly delta: number;
  /** How many noisy releases were recorded. */
  readonly releases: number;
  /** How releases composed: disjoint data (parallel) or the same data (sequential). */
  readonly composition: 'parallel' | 'sequential' | 'none';
  /** Which (eps, delta) conversion produced `epsilon`. */
  readonly conversion: string;
  /** The RDP order that attains `epsilon`, when RDP accounting was used. */
  readonly order: number | null;
}
