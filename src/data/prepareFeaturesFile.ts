import { access, stat } from 'node:fs/promises';
import { readFeaturesHeader, sha256File, writeFeaturesFile } from './featuresFile.js';
import { loadRatings } from './loadRatings.js';
import type { FeatureParams, FeaturesHeader } from './PreparedFeatures.js';
import { prepareFeatures, resolveFeatureParams, type StepProgress } from './prepareFeatures.js';
import type { RatingsFormat } from './RatingsFormat.js';

/** Options of {@link prepareFeaturesFile}. */
export interface PrepareFeaturesFileOptions {
  readonly source: string;
  readonly format: RatingsFormat;
  readonly out: string;
  readonly params?: Partial<FeatureParams>;
  /** Rebuild even when the existing file's header matches. Default false. */
  readonly force?: boolean;
  /** Progress of each step: `sha256`, `load`, `svd`, `ridge` (done/total in the step's units). */
  readonly onProgress?: StepProgress;
}

/**
 * Builds (or reuses) a features file: hashes the source (SHA-256, streamed); if `out` exists and its
 * header records the same source checksum, format and every parameter, it is reused as is;
 * otherwise the ratings are loaded, split, factorised and written (tmp + rename).
 *
 * Cost: one streamed read for the hash plus, when rebuilding, the whole pipeline (docs/data.md).
 * @example
 * const r = await prepareFeaturesFile({ source: 'ratings.csv', format: 'movielens-csv', out: 'ml.features' });
 * r.reused; // returns false the first time, true the second
 */
export async function prepareFeaturesFile(
  options: PrepareFeaturesFileOptions,
): Promise<{ readonly reused: boolean; readonly header: FeaturesHeader }> {
  const params = resolveFeatureParams(options.params ?? {});
  const progress = options.onProgress;
  const bytes = (await stat(options.source)).size;
  const sha256 = await sha256File(options.source, (d, t) => progress?.('sha256', d, t));
  if (options.force !== true && (await exists(options.out))) {
    try {
      const old = await readFeaturesHeader(options.out);
      if (
        old.source.sha256 === sha256 &&
        old.source.format === options.format &&
        JSON.stringify(old.params) === JSON.stringify(params)
      ) {
        return { reused: true, header: old };
      }
    } catch {
      // unreadable or foreign file: rebuild
    }
  }
  const timings: Record<string, number> = {};
  const t0 = performance.now();
  const data = await loadRatings(options.source, {
    format: options.format,
    skipBadRows: params.skipBadRows,
    onProgress: (d, t) => progress?.('load', d, t),
  });
  timings.load = (performance.now() - t0) / 1000;
  const prepared = prepareFeatures(data, params, { sha256, bytes }, progress, timings);
  await writeFeaturesFile(options.out, prepared);
  return { reused: false, header: prepared.header };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
