// AdaPrivate-TS hot loop against a native C -O2 reference of the same round (bench/native/).
// Usage (after `npm run build`): node dist/bench/nativeRound.bench.js [--dims 20,50] [--repeat 7]
//   [--horizon T] [--block B] [--json] [--with-js]
// --with-js also times the library with its WebAssembly kernels switched off (the JavaScript
// kernels, bit-identical), as a third side in the same alternation: the before/after of issue 29.
//
// Both sides run the same pre-generated stream (the stream of `adaprivate bench`: unit-norm Gaussian
// features, Bernoulli rewards of a logistic model; K = 5, seed 1, epsilon 1, seeded noise) from the
// same generator states, so they make the same decisions: the bench prints both decision hashes and
// fails (exit 1) when they differ. The C program is compiled with `gcc -O2 -ffp-contract=off` when
// gcc is found (GCC environment variable, else `gcc` on the PATH); without gcc the bench says so and
// times the TypeScript side alone.
//
// Timing: the runs alternate (TypeScript, C, TypeScript, C, ...) `--repeat` times; every block of
// `--block` rounds is timed by its fastest run on each side, so a throttled spell of a shared
// machine hits both sides and is dropped. CPU seconds (process.cpuUsage for TypeScript, the C
// process's CLOCK_PROCESS_CPUTIME_ID) are printed beside the wall figures: on a loaded machine a wall
// figure far above its CPU figure means the run waited for a core.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchStream } from '../src/cli/benchStream.js';
import { setLinalgKernel } from '../src/linalg/index.js';
import { createPolicy } from '../src/policies/index.js';
import { createRng } from '../src/random/index.js';
import { setPolarKernel } from '../src/random/xoshiroPolarKernel.js';
import { benchArgs } from './benchArgs.js';

const args = benchArgs(
  import.meta.url,
  { block: '256', dims: '20,50', horizon: '', repeat: '7' }, // horizon: by d (below) when unset
  ['json', 'with-js'],
);

const dims = args.dims.split(',').map(Number);
const repeat = Number(args.repeat);
const blockRounds = Number(args.block);
const json = args.json;
const withJs = args['with-js'];
const K = 5;
const SEED = 1;
const STREAM_ROUNDS = 1024;
const horizonFor = (d: number): number =>
  args.horizon !== '' ? Number(args.horizon) : d <= 20 ? 20_000 : 6_000;
for (const [what, v] of [
  ['--repeat', repeat],
  ['--block', blockRounds],
] as const) {
  if (!Number.isSafeInteger(v) || v < 1)
    throw new RangeError(`nativeRound: ${what} must be a positive integer. Got ${v}.`);
}

/** The stream of `adaprivate bench` (src/cli/benchStream.ts), n rounds of K candidates. */
function makeStream(d: number, n: number): { features: Float64Array; rewards: Float64Array } {
  return benchStream(SEED, d, K, n);
}

/** 64-bit FNV-1a over the decisions, h = (h ^ arm) * prime (the C program's hash). */
function fnv(decisions: Int32Array): string {
  let h = 0xcbf29ce484222325n;
  for (const a of decisions) h = BigInt.asUintN(64, (h ^ BigInt(a)) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

interface Side {
  blocks: Float64Array;
  cpuSeconds: number;
  hash: string;
}

function policyOptions(d: number, horizon: number) {
  return { dim: d, horizon, seed: SEED, epsilon: 1, noiseSeed: SEED };
}

function runTs(
  d: number,
  horizon: number,
  stream: ReturnType<typeof makeStream>,
  side: Side,
  kernels = true,
): void {
  // the kernels are chosen when the factor is made (linalg) and at each draw (normals)
  const wasLinalg = setLinalgKernel(kernels);
  const wasPolar = setPolarKernel(kernels);
  try {
    runPolicy(createPolicy('adaprivate-ts', policyOptions(d, horizon)), d, horizon, stream, side);
  } finally {
    setLinalgKernel(wasLinalg);
    setPolarKernel(wasPolar);
  }
}

function runPolicy(
  policy: ReturnType<typeof createPolicy>,
  d: number,
  horizon: number,
  stream: ReturnType<typeof makeStream>,
  side: Side,
): void {
  const views: Float64Array[] = [];
  for (let r = 0; r < STREAM_ROUNDS; r++) views.push(stream.features.subarray(r * K * d, (r + 1) * K * d));
  const decisions = new Int32Array(horizon);
  const rewards = stream.rewards;
  const cpu0 = process.cpuUsage();
  let tb = performance.now();
  for (let t = 0, r = 0; t < horizon; t++) {
    const a = policy.select(views[r]!, K);
    policy.update(rewards[r * K + a]!);
    decisions[t] = a;
    r = r + 1 === STREAM_ROUNDS ? 0 : r + 1;
    if ((t + 1) % blockRounds === 0 || t + 1 === horizon) {
      const now = performance.now();
      const b = Math.floor(t / blockRounds);
      side.blocks[b] = Math.min(side.blocks[b]!, (now - tb) / 1000);
      tb = now;
    }
  }
  const cpu = process.cpuUsage(cpu0);
  side.cpuSeconds += (cpu.user + cpu.system) / 1e6;
  side.hash = fnv(decisions);
}

/** The C program's input file (see bench/native/adaprivateTsRound.c). */
function writeStreamFile(
  path: string,
  d: number,
  horizon: number,
  stream: ReturnType<typeof makeStream>,
): void {
  const policy = createPolicy('adaprivate-ts', policyOptions(d, horizon));
  const config = policy.config as { lambda: number; v: number; batchSize: number };
  // the batch release's noise scale at sensitivity 1 (the mechanism is internal to the policy)
  const mechanism = (policy as unknown as { mechanism: { calibration: { sigma(s: number): number } } })
    .mechanism;
  const sigma = mechanism.calibration.sigma(1);
  const words = [createRng(SEED, 'policy'), createRng(SEED, 'privacy-noise')].flatMap((g) =>
    g.saveState().words.map((w) => BigInt(`0x${w}`)),
  );
  const head = new ArrayBuffer(6 * 4 + 3 * 8 + 8 * 8);
  const view = new DataView(head);
  const ints = [d, K, STREAM_ROUNDS, horizon, config.batchSize, blockRounds];
  for (let i = 0; i < ints.length; i++) view.setInt32(4 * i, ints[i]!, true);
  const doubles = [config.lambda, config.v, sigma];
  for (let i = 0; i < doubles.length; i++) view.setFloat64(24 + 8 * i, doubles[i]!, true);
  for (let i = 0; i < words.length; i++) view.setBigUint64(48 + 8 * i, words[i]!, true);
  writeFileSync(
    path,
    Buffer.concat([
      Buffer.from(head),
      Buffer.from(stream.features.buffer, stream.features.byteOffset, stream.features.byteLength),
      Buffer.from(stream.rewards.buffer, stream.rewards.byteOffset, stream.rewards.byteLength),
    ]),
  );
}

function compileNative(dir: string): string | null {
  const gcc = process.env.GCC ?? 'gcc';
  const source = fileURLToPath(new URL('../../bench/native/adaprivateTsRound.c', import.meta.url));
  const exe = join(dir, 'adaprivateTsRound');
  try {
    execFileSync(gcc, ['-O2', '-ffp-contract=off', '-o', exe, source, '-lm'], { stdio: 'pipe' });
    return exe;
  } catch (e) {
    const why =
      (e as { code?: string }).code === 'ENOENT' ? `${gcc} not found` : String((e as Error).message);
    process.stderr.write(`nativeRound: no native reference (${why}); timing the TypeScript side only.\n`);
    return null;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-native-'));
const results: unknown[] = [];
let failed = false;
try {
  const exe = compileNative(dir);
  const load0 = loadavg()[0]!;
  for (const d of dims) {
    const horizon = horizonFor(d);
    const stream = makeStream(d, STREAM_ROUNDS);
    const file = join(dir, `stream-${d}.bin`);
    writeStreamFile(file, d, horizon, stream);
    const nb = Math.ceil(horizon / blockRounds);
    const ts: Side = { blocks: new Float64Array(nb).fill(Number.POSITIVE_INFINITY), cpuSeconds: 0, hash: '' };
    const c: Side = { blocks: new Float64Array(nb).fill(Number.POSITIVE_INFINITY), cpuSeconds: 0, hash: '' };
    const js: Side = { blocks: new Float64Array(nb).fill(Number.POSITIVE_INFINITY), cpuSeconds: 0, hash: '' };
    for (let rep = 0; rep < repeat; rep++) {
      runTs(d, horizon, stream, ts);
      if (withJs) runTs(d, horizon, stream, js, false);
      if (exe !== null) {
        const out = JSON.parse(execFileSync(exe, [file, '1'], { encoding: 'utf8' })) as {
          cpuSeconds: number;
          hash: string;
          blockSeconds: number[];
        };
        c.cpuSeconds += out.cpuSeconds;
        c.hash = out.hash;
        out.blockSeconds.forEach((s, i) => {
          c.blocks[i] = Math.min(c.blocks[i]!, s);
        });
      }
    }
    const sum = (a: Float64Array): number => a.reduce((x, y) => x + y, 0);
    const tsRate = horizon / sum(ts.blocks);
    const cRate = exe === null ? null : horizon / sum(c.blocks);
    const same = exe === null ? null : ts.hash === c.hash;
    if (same === false) failed = true;
    const jsRate = withJs ? horizon / sum(js.blocks) : null;
    if (withJs && js.hash !== ts.hash) failed = true;
    const row = {
      d,
      arms: K,
      horizon,
      repeat,
      blockRounds,
      tsRoundsPerSecond: Math.round(tsRate),
      nativeRoundsPerSecond: cRate === null ? null : Math.round(cRate),
      ratio: cRate === null ? null : Number((tsRate / cRate).toFixed(3)),
      tsCpuSecondsPerRun: Number((ts.cpuSeconds / repeat).toFixed(4)),
      nativeCpuSecondsPerRun: exe === null ? null : Number((c.cpuSeconds / repeat).toFixed(4)),
      tsWallSecondsPerRunBestBlocks: Number(sum(ts.blocks).toFixed(4)),
      nativeWallSecondsPerRunBestBlocks: exe === null ? null : Number(sum(c.blocks).toFixed(4)),
      decisionsHash: ts.hash,
      sameDecisions: same,
      ...(withJs
        ? {
            jsKernelsRoundsPerSecond: Math.round(jsRate!),
            jsKernelsRatio: cRate === null ? null : Number((jsRate! / cRate).toFixed(3)),
            jsKernelsCpuSecondsPerRun: Number((js.cpuSeconds / repeat).toFixed(4)),
            jsKernelsSameDecisions: js.hash === ts.hash,
          }
        : {}),
    };
    results.push(row);
    if (!json) {
      process.stderr.write(
        `d=${d}: TypeScript ${row.tsRoundsPerSecond} rounds/s (${row.tsCpuSecondsPerRun} CPU-s/run), ` +
          (exe === null
            ? 'no native reference\n'
            : `C -O2 ${row.nativeRoundsPerSecond} rounds/s (${row.nativeCpuSecondsPerRun} CPU-s/run), ratio ${row.ratio}, decisions ${same ? 'identical' : 'DIFFER'} (${ts.hash} / ${c.hash})\n`),
      );
      if (withJs) {
        process.stderr.write(
          `d=${d}: TypeScript without the WebAssembly kernels ${Math.round(jsRate!)} rounds/s (${(js.cpuSeconds / repeat).toFixed(4)} CPU-s/run)` +
            (cRate === null ? '' : `, ratio ${(jsRate! / cRate).toFixed(3)}`) +
            `, decisions ${js.hash === ts.hash ? 'identical' : 'DIFFER'}\n`,
        );
      }
    }
  }
  const load1 = loadavg()[0]!;
  console.log(
    JSON.stringify({ loadAverage: [load0, load1], node: process.version, results }, null, json ? 0 : 2),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed) {
  process.stderr.write('nativeRound: the TypeScript and C decisions differ (see the hashes).\n');
  process.exit(1);
}
