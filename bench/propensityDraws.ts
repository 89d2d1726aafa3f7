/**
 * The cost of a decision with its logged inverse propensity (geometric resampling): AdaPrivate-TS
 * `selectWithInversePropensity` + `update` on a pool of 64 candidate sets (features N(0, 1/d)),
 * rewards 1 every third round, best and median of 7 blocks, process CPU (user + system) per round.
 * For before/after, run the same file from two builds.
 *
 * Usage (after `npm run build`): node dist/bench/propensityDraws.js [--dim 50] [--arms 20] [--rounds 4000]
 */
import { createPolicy } from '../src/policies/index.js';
import { createRng } from '../src/random/index.js';
import { benchArgs, positiveInt } from './benchArgs.js';

const args = benchArgs(import.meta.url, { arms: '20', dim: '50', rounds: '4000' });

const d = positiveInt(import.meta.url, 'dim', args.dim);
const k = positiveInt(import.meta.url, 'arms', args.arms);
const n = positiveInt(import.meta.url, 'rounds', args.rounds);
const pool = 64;
const rng = createRng(1, 'propensity-bench');
const feats = new Float64Array(pool * k * d);
rng.fillNormal(feats);
for (let i = 0; i < feats.length; i++) feats[i] = feats[i]! / Math.sqrt(d);
const policy = createPolicy('adaprivate-ts', {
  dim: d,
  horizon: 1e7,
  seed: 1,
  epsilon: 1,
  noiseSeed: 1,
  batchSize: 100,
});
const perRound: number[] = [];
let draws = 0;
for (let block = 0; block < 7; block++) {
  const t0 = process.cpuUsage();
  for (let t = 0; t < n; t++) {
    const at = (t % pool) * k * d;
    draws += policy.selectWithInversePropensity(feats.subarray(at, at + k * d), k).inversePropensity.value;
    policy.update(t % 3 === 0 ? 1 : 0);
  }
  const u = process.cpuUsage(t0);
  perRound.push((u.user + u.system) / n);
}
perRound.sort((a, b) => a - b);
process.stdout.write(
  `propensityDraws: d = ${d}, K = ${k}: best ${perRound[0]!.toFixed(2)} us per round, median ${perRound[3]!.toFixed(2)} (CPU, 7 blocks of ${n}); mean redraws ${(draws / (7 * n)).toFixed(2)}\n`,
);
