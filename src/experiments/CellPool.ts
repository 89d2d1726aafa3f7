/**
 * A pool of worker threads that runs cells for one or more `runExperiment` calls (the studies of a
 * reproduction share one pool instead of starting one per study: no thread start-up, module load
 * and JIT warm-up per study, and no idle worker at the end of each study).
 *
 * Scheduling: cells wait in this pool's own queue and are handed to tinypool only when a thread
 * has room (its running cell and one more, `IN_FLIGHT`), the most expensive waiting cell first
 * (`cellCost`; among equal costs the lowest seed, so that a seed's cells run together while its
 * environment stream is kept), so that the workers
 * finish together. Cells submitted in the same tick (for example every study started at once) are
 * ordered together. A cell key already in this pool (waiting, running or finished) is not run
 * again: its result is shared, since a cell's result depends only on its config and the code. Nor
 * is a cell whose run key (`cellRunKey`: the resolved policy configuration instead of the params as
 * written) is already in the pool under another cell key, e.g. a tuning grid's cell that spells out
 * the policy's defaults and the main study's cell that leaves them out: it gets that cell's result
 * with its own `key` and `config` (`sharedFrom` names the cell that was run).
 * The order of execution never changes a result; only the timings.
 */
import { setMaxListeners } from 'node:events';
import type { CachedCell } from './cellCache.js';
import { cellRunKey } from './cellRunKey.js';
import { cacheVersion } from './codeFingerprint.js';
import type { CellConfig } from './types.js';

/**
 * Relative CPU cost per round of each policy at d = 20, K = 5 (from the cell timings of the quick
 * synthetic reproduction, TS = 1); a policy not listed counts 1. Only for ordering.
 */
const POLICY_WEIGHT: Readonly<Record<string, number>> = {
  'adaprivate-ts-amp': 1.5,
  'jdp-linucb': 1.2,
  'adaprivate-ts': 1,
  'zcdp-episodic': 0.9,
  'dgs-linucb': 0.8,
  'adac-oful-zcdp': 0.6,
  'adaprivate-ucb': 0.5,
  linucb: 0.5,
  'rarely-switching-zcdp': 0.35,
  'adaprivate-ts-adaptive': 0.35,
  lints: 0.35,
};

/**
 * Estimated cost of a cell, for scheduling only: rounds x (d^2 + K d) x the policy's weight
 * (replay cells, whose dimension the config does not give, count d = 20, K = 5).
 *
 * @example
 * cellCost({ env: { kind: 'synthetic', dim: 20, arms: 100, armsPerRound: 5, thetaNorm: 2, link: 'logistic' },
 *   protocol: 'full-information', policy: 'adaprivate-ts', epsilon: 1, delta: 0.01, params: {},
 *   horizon: 1000, seed: 1, checkpointEvery: 100 }); // returns 500000
 */
export function cellCost(cell: CellConfig): number {
  const d = cell.env.kind === 'synthetic' ? cell.env.dim : 20;
  const k = cell.env.kind === 'synthetic' ? cell.env.armsPerRound : 5;
  return cell.horizon * (d * d + k * d) * (POLICY_WEIGHT[cell.policy] ?? 1);
}

/**
 * Cells handed to each thread at once: the next one waits in the thread's port while it runs the
 * current one (cells are synchronous), so a thread starts it without waiting for the main thread
 * to receive the finished cell and send another (that round trip left each worker idle ~5% of a full
 * reproduction). The order of execution never changes a result.
 */
const IN_FLIGHT = 2;

interface Waiting {
  readonly key: string;
  readonly cell: CellConfig;
  readonly cost: number;
  readonly resolve: (c: CachedCell) => void;
  readonly reject: (err: unknown) => void;
  readonly signal: AbortSignal | undefined;
}

type TinypoolInstance = InstanceType<typeof import('tinypool').Tinypool>;

function abortReason(): Error {
  const err = new Error('The cell was aborted.');
  err.name = 'AbortError';
  return err;
}

export class CellPool {
  /** Worker threads (at most this many cells run at once; `IN_FLIGHT` per thread are handed out). */
  readonly threads: number;
  private pool: Promise<TinypoolInstance> | null = null;
  private readonly waiting: Waiting[] = [];
  /** Every cell key submitted (not failed), and each run key with the cell key that runs it. */
  private readonly known = new Map<string, Promise<CachedCell>>();
  private readonly byRun = new Map<string, { readonly key: string; readonly promise: Promise<CachedCell> }>();
  private running = 0;
  /** Signals with this pool's abort listener (see watch). */
  private readonly watched = new WeakSet<AbortSignal>();
  private dispatchQueued = false;
  private destroyed = false;

  /**
   * @param threads - worker threads; a positive integer. The threads start at the first cell.
   * @example
   * const pool = new CellPool(2);
   * try { await runExperiment(a, { pool }); await runExperiment(b, { pool }); } finally { await pool.destroy(); }
   */
  constructor(threads: number) {
    if (!Number.isSafeInteger(threads) || threads <= 0) {
      throw new RangeError(`CellPool: threads must be a positive integer. Got ${threads}.`);
    }
    this.threads = threads;
  }

  /**
   * Runs `cell` (whose key is `key`) on a worker, or returns the result of the same key already
   * submitted to this pool. `signal`: drops the cell if it still waits, terminates its worker if it
   * runs (the promise rejects with an AbortError).
   */
  run(key: string, cell: CellConfig, signal?: AbortSignal): Promise<CachedCell> {
    if (this.destroyed) return Promise.reject(new Error('CellPool: the pool was destroyed.'));
    const known = this.known.get(key);
    if (known !== undefined) return known;
    const runKey = cellRunKey(cell, cacheVersion());
    const same = runKey === null ? undefined : this.byRun.get(runKey);
    if (same !== undefined) {
      // the same run under another cell key: its result, relabelled (no CPU spent here)
      const q = same.promise.then(
        (c): CachedCell => ({
          result: { ...c.result, key, config: cell },
          durationMs: 0,
          sharedFrom: same.key,
        }),
      );
      this.known.set(key, q);
      q.catch(() => {
        if (this.known.get(key) === q) this.known.delete(key);
      });
      return q;
    }
    const p = new Promise<CachedCell>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason());
        return;
      }
      const w: Waiting = { key, cell, cost: cellCost(cell), resolve, reject, signal };
      this.waiting.push(w);
      if (signal !== undefined) this.watch(signal);
    });
    this.known.set(key, p);
    if (runKey !== null) this.byRun.set(runKey, { key, promise: p });
    // a failed or aborted cell may be submitted again
    p.catch(() => {
      if (this.known.get(key) === p) this.known.delete(key);
      if (runKey !== null && this.byRun.get(runKey)?.promise === p) this.byRun.delete(runKey);
    });
    this.scheduleDispatch();
    return p;
  }

  /**
   * One listener per signal, not one per cell: an EventTarget walks its listeners on every add and
   * remove, and a reproduction queues ~13,000 cells on one signal (tinypool's own listener per
   * running cell then walked them all: ~3 CPU-s of the main thread). On abort, every waiting cell
   * of that signal is dropped.
   */
  private watch(signal: AbortSignal): void {
    if (this.watched.has(signal)) return;
    this.watched.add(signal);
    signal.addEventListener(
      'abort',
      () => {
        const kept: Waiting[] = [];
        for (const w of this.waiting) {
          if (w.signal === signal) w.reject(abortReason());
          else kept.push(w);
        }
        this.waiting.length = 0;
        for (const w of kept) this.waiting.push(w);
      },
      { once: true },
    );
  }

  /** Stops the worker threads (cells still waiting are rejected). */
  async destroy(): Promise<void> {
    this.destroyed = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error('CellPool: the pool was destroyed.'));
    if (this.pool !== null) await (await this.pool.catch(() => null))?.destroy();
  }

  private scheduleDispatch(): void {
    if (this.dispatchQueued) return;
    this.dispatchQueued = true;
    // after the current tick, so that cells submitted together are ordered together
    setImmediate(() => {
      this.dispatchQueued = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (!this.destroyed && this.running < this.threads * IN_FLIGHT && this.waiting.length > 0) {
      // equal costs: the lowest seed first, so that the cells of one seed run together and find
      // its environment stream still kept by the thread (cellEnvironment)
      let best = 0;
      for (let i = 1; i < this.waiting.length; i++) {
        const x = this.waiting[i]!;
        const b = this.waiting[best]!;
        if (x.cost > b.cost || (x.cost === b.cost && x.cell.seed < b.cell.seed)) best = i;
      }
      const w = this.waiting.splice(best, 1)[0]!;
      this.running++;
      this.start(w).then(
        (c) => {
          this.running--;
          w.resolve(c);
          this.dispatch();
        },
        (err: unknown) => {
          this.running--;
          w.reject(err);
          this.dispatch();
        },
      );
    }
  }

  private async start(w: Waiting): Promise<CachedCell> {
    const pool = await this.tinypool();
    return (await pool.run(w.cell, w.signal === undefined ? {} : { signal: w.signal })) as CachedCell;
  }

  private tinypool(): Promise<TinypoolInstance> {
    if (this.pool === null) {
      this.pool = (async () => {
        // compiled: dist/src/experiments/cellWorker.js; from source under tsx: cellWorker.ts with the tsx loader
        const fromSource = import.meta.url.endsWith('.ts');
        // loaded only for parallel runs: the light core package lists tinypool as an optional peer
        const { Tinypool } = await import('tinypool').catch((err: unknown) => {
          throw new Error(
            `runExperiment: worker threads need the package tinypool (npm install tinypool@2.2.0); or pass inProcess: true to run the cells in this thread. ${String(err)}`,
          );
        });
        return new Tinypool({
          filename: new URL(`./cellWorker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href,
          ...(fromSource ? { execArgv: ['--import', 'tsx'] } : {}),
          minThreads: this.threads,
          maxThreads: this.threads,
          concurrentTasksPerWorker: IN_FLIGHT,
          idleTimeout: 1000,
        });
      })();
    }
    return this.pool;
  }
}

/** Lets many waiting cells listen on one signal (hundreds of listeners are expected, not a leak). */
export function manyListeners(signal: AbortSignal): AbortSignal {
  setMaxListeners(0, signal);
  return signal;
}
