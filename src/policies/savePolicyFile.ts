import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Policy, SnapshotOptions } from './Policy.js';

let counter = 0;

/**
 * Node only: writes `policy.save(options)` to `path` atomically (a temporary file in the same
 * directory, then rename) with permissions 0600 (owner read/write): a snapshot holds raw, unreleased
 * reward sums and must be stored like the raw data. `options.key` signs it (default: this process's
 * random key, with which only this process can load the file: pass a key to keep it).
 *
 * @example
 * savePolicyFile(policy, 'models/ts.json', { key }); // then loadPolicyFile('models/ts.json', { key })
 */
export function savePolicyFile(policy: Policy, path: string, options: SnapshotOptions = {}): void {
  const text = policy.save(options);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${counter++}`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}
