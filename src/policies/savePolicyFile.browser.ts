/** The browser build's `savePolicyFile` (scripts/build-browser.mjs swaps it in): there is no file system. */
import type { Policy } from './Policy.js';

/**
 * Node only: in a browser it throws; keep `policy.save()` text where the app stores data.
 *
 * @example
 * savePolicyFile(policy, 'models/ts.json'); // throws in a browser
 */
export function savePolicyFile(_policy: Policy, path: string): void {
  throw new Error(
    `savePolicyFile: no file system in a browser (path ${JSON.stringify(path)}); store policy.save() yourself.`,
  );
}
