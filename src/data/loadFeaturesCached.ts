import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readFeaturesFileSync } from './featuresFile.js';
import type { PreparedFeatures } from './PreparedFeatures.js';

const cache = new Map<
  string,
  { readonly mtimeMs: number; readonly size: number; readonly f: PreparedFeatures }
>();

/**
 * Reads a features file synchronously, once per process: environments built many times from the
 * same JSON config (one per seed and policy) share the read-only arrays. A file changed on disk
 * (size or mtime) is read again.
 * @example
 * loadFeaturesCached('ml.features') === loadFeaturesCached('ml.features'); // returns true
 */
export function loadFeaturesCached(file: string): PreparedFeatures {
  if (typeof file !== 'string' || file === '') {
    throw new Error(
      `ratings environment: featuresFile must be a non-empty path. Got ${JSON.stringify(file)}.`,
    );
  }
  const path = resolve(file);
  let st: { mtimeMs: number; size: number };
  try {
    st = statSync(path);
  } catch {
    throw new Error(
      `ratings environment: featuresFile ${JSON.stringify(file)} does not exist (run \`adaprivate data prepare\`).`,
    );
  }
  const hit = cache.get(path);
  if (hit !== undefined && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.f;
  const f = readFeaturesFileSync(file, readFileSync(path));
  cache.set(path, { mtimeMs: st.mtimeMs, size: st.size, f });
  return f;
}
