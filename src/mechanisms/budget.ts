/**
 * The privacy budget of a private policy's configuration, read two ways: as a zCDP rho and as the
 * (epsilon, delta) target. Exactly one of epsilon or rho is given (the policy schema checks it).
 */
import { epsilonToRho, zcdpToEpsilon } from '../privacy/index.js';

/** The budget fields of a private policy's configuration. */
export type PrivacyBudget = { readonly delta: number } & (
  | { readonly epsilon: number; readonly rho?: never }
  | { readonly rho: number; readonly epsilon?: never }
);

/**
 * The zCDP budget of a private policy's config: `rho` when given, else from (epsilon, delta) by the
 * classic conversion (SPEC section 2).
 *
 * @example
 * budgetRho({ epsilon: 5, delta: 1e-5 }); // returns ~0.4496
 */
export function budgetRho(config: PrivacyBudget): number {
  if (config.rho !== undefined) return config.rho;
  return epsilonToRho(config.epsilon, config.delta, 'classic');
}

/** The (epsilon, delta) target of a private policy's config (epsilon from rho when rho was given). */
export function budgetEpsilon(config: PrivacyBudget): number {
  if (config.epsilon !== undefined) return config.epsilon;
  return zcdpToEpsilon(config.rho, config.delta, 'classic');
}
