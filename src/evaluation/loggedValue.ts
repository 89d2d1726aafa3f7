import type { BootstrapOptions, Estimate } from './Estimate.js';
import { checkOpeInput, type OpeInput } from './OpeInput.js';
import { ratioBootstrap } from './ratioBootstrap.js';

/**
 * The logging policy's own value: the plain average of the logged rewards (on-policy), with the same
 * bootstrap as the estimators (same seed: paired replicates, so ratios to it get intervals too).
 *
 * @example
 * loggedValue(input, { resamples: 1000, seed: 1 }).value; // returns the mean logged reward, e.g. ~0.55
 */
export function loggedValue(input: OpeInput, options: BootstrapOptions = {}): Estimate {
  const n = checkOpeInput(input);
  return ratioBootstrap('logged', input.rewards, null, n, options);
}
