import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Policy } from './Policy.js';

let counter = 0;

/**
 * Node only: writes `policy.save()` to `path` atomically (a temporary file in the same directory, then
 * rename) with permissions 0600 (owner read/write): a snapshot holds raw, unreleased reward sums and
 * must be stored like the raw data.
 *
 * @example
 * savePolicyFile(policy, 'models/ts.json'); // then loadPolicyFile('models/ts.json')
 */
export function savePolicyFile(policy: Policy, path: string): void {
  const text = policy.save();
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${counter++}`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}
