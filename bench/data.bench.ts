/**
 * Scale benchmark of the real-data pipeline (issue 6): load + split + rank-50 SVD + features on a
 * file shaped like ml-25m (see gen-ml25m.ts). Prints wall time per step and the peak resident set
 * size (sampled every 200 ms), and checks the result (non-zero singular values, usable arms).
 *
 * Usage: node --max-old-space-size=4096 dist/bench/data.bench.js RATINGS_CSV [rank]
 */
import { loadRatings } from '../src/data/loadRatings.js';
import { prepareFeatures, resolveFeatureParams } from '../src/data/prepareFeatures.js';

async function main(): Promise<void> {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: data.bench.js RATINGS_CSV [rank]');
  const rank = Number(process.argv[3] ?? 50);
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 200);
  const t0 = performance.now();
  const data = await loadRatings(file, { format: 'movielens-csv' });
  const tLoad = (performance.now() - t0) / 1000;
  const timings: Record<string, number> = { load: tLoad };
  const f = prepareFeatures(
    data,
    resolveFeatureParams({ rank }),
    { sha256: 'bench', bytes: 0 },
    undefined,
    timings,
  );
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  const total = (performance.now() - t0) / 1000;
  if (!(f.header.singularValues[rank - 1]! > 0) || f.header.counts.eval === 0)
    throw new Error('bench: bad result');
  process.stdout.write(
    `${JSON.stringify({ ratings: data.count, users: data.userIds.length, items: data.itemIds.length, rank, timings, totalSeconds: total, peakRssMB: Math.round(peak / 2 ** 20) })}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${String(e)}\n`);
  process.exitCode = 1;
});
