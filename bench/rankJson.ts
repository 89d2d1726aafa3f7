/**
 * The JSON rank body's two readers on the load test's body (src/service/rankJson.ts): the fast path
 * (bytes straight into packed features) against `Buffer.toString` + `JSON.parse`, which the route then
 * checks and copies into a Float64Array per event. A batch of `--batch` events of K arms of d features
 * (the load test's seeded pool, 6 decimals), best and median of 7 blocks, microseconds per body.
 * The fast path's result is checked against JSON.parse's first (bit-exact features).
 *
 * Usage (after `npm run build`): node dist/bench/rankJson.js [--dim 20] [--arms 5] [--batch 100]
 */
import { PACKED_FEATURES, type PackedRankRequest } from '../src/service/binaryRank.js';
import { DEFAULT_LIMITS } from '../src/service/contract.js';
import { fastRankBatchJson } from '../src/service/rankJson.js';
import { benchArgs, positiveInt } from './benchArgs.js';
import { armsPool } from './loadClient.js';

const args = benchArgs(import.meta.url, { arms: '5', batch: '100', dim: '20' });

const d = positiveInt(import.meta.url, 'dim', args.dim);
const k = positiveInt(import.meta.url, 'arms', args.arms);
const batch = positiveInt(import.meta.url, 'batch', args.batch);
const pool = armsPool(d, k, 64);
const events = Array.from(
  { length: batch },
  (_, n) => `{"eventId":"t-${n}","arms":${pool[n % pool.length]}}`,
);
const body = Buffer.from(`{"events":[${events.join(',')}]}`);

const parsed = JSON.parse(body.toString('utf8')) as { events: { arms: { features: number[] }[] }[] };
const fast = fastRankBatchJson(body, DEFAULT_LIMITS) as { events: PackedRankRequest[] } | null;
if (fast === null) throw new Error('rankJson: the fast path left the load test body.');
parsed.events.forEach((e, i) => {
  const flat = e.arms.flatMap((a) => a.features);
  const packed = fast.events[i]![PACKED_FEATURES];
  if (packed.length !== flat.length || flat.some((x, j) => !Object.is(x, packed[j]))) {
    throw new Error(`rankJson: event ${i} differs from JSON.parse.`);
  }
});

/** Best and median microseconds per call of `fn` over 7 blocks of `reps` calls. */
function time(fn: () => number, reps: number): { best: number; median: number } {
  const us: number[] = [];
  let sink = 0;
  for (let b = 0; b < 7; b++) {
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < reps; r++) sink += fn();
    us.push(Number(process.hrtime.bigint() - t0) / 1000 / reps);
  }
  if (sink === -1) process.stdout.write('');
  us.sort((a, b) => a - b);
  return { best: us[0]!, median: us[3]! };
}

const reps = Math.max(20, Math.round(30_000_000 / body.length));
const usual = time(() => {
  const v = JSON.parse(body.toString('utf8')) as { events: { arms: { features: number[] }[] }[] };
  // what the route does next for JSON: one Float64Array per event
  let n = 0;
  for (const e of v.events) {
    const f = new Float64Array(e.arms.length * e.arms[0]!.features.length);
    let at = 0;
    for (const a of e.arms) for (const x of a.features) f[at++] = x;
    n += f.length;
  }
  return n;
}, reps);
const read = time(
  () => (fastRankBatchJson(body, DEFAULT_LIMITS) as { events: unknown[] }).events.length,
  reps,
);
const line = (name: string, t: { best: number; median: number }) =>
  `${name}: best ${t.best.toFixed(1)} us, median ${t.median.toFixed(1)} us per body (${(t.best / batch).toFixed(2)} us per event)`;
process.stdout.write(
  `rankJson: ${batch} events, d = ${d}, K = ${k}, ${body.length} bytes\n${line('JSON.parse + copy', usual)}\n${line('fast path', read)}\n`,
);
