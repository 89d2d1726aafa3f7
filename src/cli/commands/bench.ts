/**
 * `adaprivate bench`: rounds per second of one policy's full select + update loop on a fixed,
 * pre-generated synthetic stream (generated before the clock starts, cycled if T is longer).
 */
import { performance } from 'node:perf_hooks';
import type { Command } from 'commander';
import { createPolicy, type PolicyId, policyIds, policyInfo } from '../../policies/index.js';
import { VERSION } from '../../version.js';
import { benchStream } from '../benchStream.js';
import { parseNumber, parsePositiveInt, printJson } from '../output.js';
import { policyIdFromFlag, policySpecFromFlags } from '../policySpecFromFlags.js';

/** What `bench` measures. */
export interface BenchOptions {
  readonly policy: PolicyId;
  readonly dim: number;
  readonly arms: number;
  readonly horizon: number;
  readonly seed: number;
  /** Budget of private policies; default 1 (delta 1e-5). */
  readonly epsilon: number;
  /** Timed repetitions; the best is reported. Default 1. */
  readonly repeat: number;
  /** Also return the per-block minima (`blockSeconds`), e.g. to merge runs made at different times. */
  readonly keepBlocks?: boolean;
  /**
   * Rounds per timed block (default 1,024). Shorter blocks suit slow policies (large d) on a CPU
   * throttled in bursts: a block must fit between two stalls in at least one repetition.
   */
  readonly blockRounds?: number;
}

/** The result printed by `bench --json`. */
export interface BenchResult {
  readonly roundsPerSecond: number;
  readonly policy: PolicyId;
  readonly dim: number;
  readonly arms: number;
  readonly horizon: number;
  readonly seed: number;
  readonly epsilon: number | null;
  readonly repeat: number;
  /** Rounds per timed block. */
  readonly blockRounds: number;
  /**
   * Seconds of T rounds: the sum over blocks of `blockRounds` rounds of each block's fastest repetition.
   * Every repetition does the same work (same seed), so a block slowed by another process or a
   * throttled CPU in one repetition is timed from another. roundsPerSecond = horizon / seconds.
   */
  readonly seconds: number;
  /** Seconds of the fastest whole repetition (the plain best-of-repeat figure, for comparison). */
  readonly bestRunSeconds: number;
  /** With `keepBlocks`: each block's fastest time in seconds (the last block may be shorter). */
  readonly blockSeconds?: readonly number[];
  /** Sum of the chosen arm indices (checked so the loop cannot be optimised away). */
  readonly checksum: number;
  readonly streamRounds: number;
  readonly version: string;
  readonly node: string;
}

/** Default rounds per timed block (see {@link BenchResult.seconds}). */
const BLOCK_ROUNDS = 1024;

/** Rounds in the pre-generated stream (cycled when the horizon is longer). */
const STREAM_ROUNDS = 1024;

/**
 * Times `repeat` runs of T rounds of `policy` and returns the rate from the fastest repetition of
 * each block of `blockRounds` (default 1,024) rounds (see {@link BenchResult.seconds}).
 *
 * @example
 * benchPolicy({ policy: 'lints', dim: 5, arms: 5, horizon: 1000, seed: 1, epsilon: 1, repeat: 1 }).roundsPerSecond; // returns ~1e6
 */
export function benchPolicy(o: BenchOptions): BenchResult {
  const { dim: d, arms: k } = o;
  const blockRounds = o.blockRounds ?? BLOCK_ROUNDS;
  if (!Number.isInteger(blockRounds) || blockRounds < 1) {
    throw new RangeError(`bench: blockRounds must be a positive integer. Got ${blockRounds}.`);
  }
  const n = Math.min(STREAM_ROUNDS, o.horizon);
  // the stream: unit-norm Gaussian features, Bernoulli rewards of a logistic model (SPEC section 5)
  const { features, rewards } = benchStream(o.seed, d, k, n);
  const views: Float64Array[] = [];
  for (let r = 0; r < n; r++) views.push(features.subarray(r * k * d, (r + 1) * k * d));
  const info = policyInfo(o.policy);
  // the flags as untyped options, parsed by the policy schema table (the service's parser too)
  const spec = policySpecFromFlags('bench', o.policy, {
    dim: d,
    horizon: o.horizon,
    seed: o.seed,
    // seeded noise: the figures time the policy's arithmetic, comparable across versions
    ...(info.isPrivate ? { epsilon: o.epsilon, noiseSeed: o.seed } : {}),
  });
  let best = Number.POSITIVE_INFINITY;
  let checksum = 0;
  const blocks = Math.ceil(o.horizon / blockRounds);
  const blockBest = new Float64Array(blocks).fill(Number.POSITIVE_INFINITY);
  for (let rep = 0; rep < o.repeat; rep++) {
    const policy = createPolicy(spec.id, spec.options);
    let sum = 0;
    const t0 = performance.now();
    let tb = t0;
    for (let t = 0, r = 0; t < o.horizon; t++) {
      const a = policy.select(views[r]!, k);
      policy.update(rewards[r * k + a]!);
      sum += a;
      r = r + 1 === n ? 0 : r + 1;
      if ((t + 1) % blockRounds === 0 && t + 1 < o.horizon) {
        const now = performance.now();
        const b = (t + 1) / blockRounds - 1;
        if (now - tb < blockBest[b]!) blockBest[b] = now - tb;
        tb = now;
      }
    }
    policy.finish();
    const tEnd = performance.now();
    // the last block includes finish()
    if (tEnd - tb < blockBest[blocks - 1]!) blockBest[blocks - 1] = tEnd - tb;
    const secs = (tEnd - t0) / 1000;
    if (sum < 0 || sum > o.horizon * (k - 1)) throw new Error('bench: checksum out of range');
    if (secs < best) best = secs;
    checksum = sum;
  }
  let blockSeconds = 0;
  for (let b = 0; b < blocks; b++) blockSeconds += blockBest[b]! / 1000;
  return {
    roundsPerSecond: Math.round(o.horizon / blockSeconds),
    policy: o.policy,
    dim: d,
    arms: k,
    horizon: o.horizon,
    seed: o.seed,
    epsilon: info.isPrivate ? o.epsilon : null,
    repeat: o.repeat,
    blockRounds,
    seconds: blockSeconds,
    bestRunSeconds: best,
    ...(o.keepBlocks === true ? { blockSeconds: Array.from(blockBest, (ms) => ms / 1000) } : {}),
    checksum,
    streamRounds: n,
    version: VERSION,
    node: process.version,
  };
}

/** Registers `adaprivate bench`. */
export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('Measure rounds per second of a policy (select + update) on a fixed synthetic stream.')
    .requiredOption('--policy <id>', `policy id: ${policyIds.join(', ')}`)
    .option('--dim <d>', 'feature dimension', parsePositiveInt('--dim'), 20)
    .option('--arms <k>', 'arms per round', parsePositiveInt('--arms'), 5)
    .option('--horizon <t>', 'rounds to time', parsePositiveInt('--horizon'), 100_000)
    .option('--seed <s>', 'seed of the stream and the policy', parsePositiveInt('--seed'), 1)
    .option('--epsilon <eps>', 'budget of private policies (delta = 1e-5)', parseNumber('--epsilon'), 1)
    .option(
      '--repeat <n>',
      'timed repetitions; each block of rounds is timed by its fastest repetition',
      parsePositiveInt('--repeat'),
      1,
    )
    .option(
      '--block <n>',
      'rounds per timed block; shorter blocks for slow policies on a CPU throttled in bursts',
      parsePositiveInt('--block'),
      1024,
    )
    .option('--json', 'print one JSON document')
    .action((opts: Record<string, unknown>) => {
      const id = policyIdFromFlag('bench', opts.policy);
      const epsilon = opts.epsilon as number;
      const result = benchPolicy({
        policy: id,
        dim: opts.dim as number,
        arms: opts.arms as number,
        horizon: opts.horizon as number,
        seed: opts.seed as number,
        epsilon,
        repeat: opts.repeat as number,
        blockRounds: opts.block as number,
      });
      if (opts.json === true) printJson(result);
      else {
        process.stdout.write(
          `${policyInfo(id).displayName}: ${result.roundsPerSecond.toLocaleString('en-US')} rounds/s ` +
            `(d=${result.dim}, K=${result.arms}, T=${result.horizon}, fastest of ${result.repeat} per ${result.blockRounds.toLocaleString('en-US')}-round block, ${result.seconds.toFixed(3)} s)\n`,
        );
      }
    });
}
