/** The browser build's `loadPolicyFile` (scripts/build-browser.mjs swaps it in): there is no file system. */
import type { Policy, RestoreOptions } from './Policy.js';

/**
 * Node only: in a browser it throws; pass the saved text to `loadPolicy` instead.
 *
 * @example
 * loadPolicyFile('models/ts.json'); // throws in a browser
 */
export function loadPolicyFile(path: string, _options: RestoreOptions = {}): Policy {
  throw new Error(
    `loadPolicyFile: no file system in a browser (path ${JSON.stringify(path)}); use loadPolicy(text).`,
  );
}
