import { readFileSync } from 'node:fs';
import { loadPolicy } from './loadPolicy.js';
import type { Policy, RestoreOptions } from './Policy.js';

/**
 * Node only: reads a file written by `savePolicyFile` and rebuilds the policy with `loadPolicy`
 * (`options.key`: the key it was saved with; see loadPolicy).
 *
 * @example
 * const policy = loadPolicyFile('models/ts.json', { key }); // the saved policy, ledger included
 */
export function loadPolicyFile(path: string, options: RestoreOptions = {}): Policy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new RangeError(`loadPolicyFile: cannot read ${path} (${(e as Error).message}).`);
  }
  return loadPolicy(text, options);
}
