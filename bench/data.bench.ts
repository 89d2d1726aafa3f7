/**
 * Scale benchmark of the real-data pipeline (issue 6): load + split + rank-50 SVD + features on a
 * file shaped like ml-25m (see gen-ml25m.ts). Prints wall time per step, total wall and CPU seconds
 * and the peak resident set size (the kernel's high-water mark), and checks the result (non-zero
 * singular values, usable arms).
 *
 * Usage: node --max-old-space-size=4096 dist/bench/data.bench.js RATINGS_CSV [rank]
 */
import { loadRatings } from '../src/data/loadRatings.js';
import { prepareFeatures, resolveFeatureParams } from '../src/data/prepareFeatures.js';

async function main(): Promise<void> {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: data.bench.js RATINGS_CSV [rank]');
  const rank = Number(process.argv[3] ?? 50);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
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
  // the kernel's high-water mark of the resident set (KiB): exact, unlike sampling, which cannot
  // run while the synchronous SVD holds the event loop
  const peak = process.resourceUsage().maxRSS * 1024;
  const cpu = process.cpuUsage(cpu0);
  const total = (performance.now() - t0) / 1000;
  if (!(f.header.singularValues[rank - 1]! > 0) || f.header.counts.eval === 0)
    throw new Error('bench: bad result');
  process.stdout.write(
    `${JSON.stringify({ ratings: data.count, users: data.userIds.length, items: data.itemIds.length, rank, timings, totalSeconds: total, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssMB: Math.round(peak / 2 ** 20) })}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${String(e)}\n`);
  process.exitCode = 1;
});
