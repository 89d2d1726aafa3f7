/**
 * The experiment runner: expands the grid into cells, reuses cached cells, runs the others in
 * parallel on worker threads (tinypool) and returns the results ordered by cell key.
 *
 * Determinism: a cell's result depends only on its config and the software version (each cell
 * builds its own environment and policy from its seed), and results are sorted by key, so the
 * same config gives byte-identical results whatever the number of workers or the cache state.
 * Timings are reported apart (`timings`), never in the deterministic part.
 *
 * Caching and interruption: each finished cell is written atomically to `cacheDir` as soon as it
 * arrives, so an interrupted or crashed run resumes where it stopped and loses at most the cells
 * that were in flight. Aborting (`signal`) terminates the workers and rejects with an AbortError.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { VERSION } from '../version.js';
import { CellPool, manyListeners } from './CellPool.js';
import { type CachedCell, readCachedCell, writeCachedCell } from './cellCache.js';
import { cellKey } from './cellKey.js';
import { cacheVersion } from './codeFingerprint.js';
import { expandGrid } from './expandGrid.js';
import { runCell } from './runCell.js';
import type {
  CellConfig,
  CellResult,
  CellTiming,
  ExperimentConfig,
  ExperimentResult,
  RunOptions,
} from './types.js';

function abortError(): Error {
  const err = new Error('The experiment was interrupted; finished cells are cached.');
  err.name = 'AbortError';
  return err;
}

function describeCell(c: CellConfig): string {
  const params = Object.entries(c.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return `${c.policy} eps=${c.epsilon ?? 'none'}${params ? ` ${params}` : ''} seed=${c.seed}`;
}

/**
 * Runs every cell of `config` (validated by `validateExperimentConfig`).
 *
 * @param options - `workers` (default: all cores), `cacheDir` (default: no cache), `onProgress`,
 *   `signal`, `inProcess` (run in the calling thread; default false), `pool` (a {@link CellPool}
 *   shared with other runs, which then sets the threads; default: a pool of `workers` threads for
 *   this call, destroyed at its end).
 * @example
 * const r = await runExperiment(validateExperimentConfig({ policies: ['lints'], seeds: 2, horizon: 200 }), { workers: 2 });
 * r.cells.length; // returns 2
 */
export async function runExperiment(
  config: ExperimentConfig,
  options: RunOptions = {},
): Promise<ExperimentResult> {
  const workers = options.workers ?? availableParallelism();
  if (!Number.isSafeInteger(workers) || workers <= 0) {
    throw new RangeError(`runExperiment: workers must be a positive integer. Got ${workers}.`);
  }
  const { cacheDir, onProgress, signal } = options;
  if (signal?.aborted) throw abortError();
  const cells = expandGrid(config);
  const version = cacheVersion();
  const done = new Map<string, CachedCell & { cached: boolean }>();
  const pending: { key: string; cell: CellConfig }[] = [];
  const pendingKeys = new Set<string>();
  for (const cell of cells) {
    const key = cellKey(cell, version);
    if (done.has(key) || pendingKeys.has(key)) continue;
    const hit = cacheDir === undefined ? null : readCachedCell(cacheDir, key);
    if (hit !== null) done.set(key, { ...hit, cached: true });
    else {
      pending.push({ key, cell });
      pendingKeys.add(key);
    }
  }
  const cachedCount = done.size;
  const unique = cachedCount + pending.length;
  const report = () => onProgress?.({ done: done.size, total: unique, cached: cachedCount });
  report();
  const accept = (key: string, c: CachedCell) => {
    if (c.result.key !== key)
      throw new Error(
        `runExperiment: a worker computed cell key ${c.result.key}, expected ${key}: the code changed during the run (was dist/ rebuilt?). Finished cells are cached; run the command again.`,
      );
    if (cacheDir !== undefined) writeCachedCell(cacheDir, c);
    done.set(key, { ...c, cached: false });
    report();
  };

  if (pending.length > 0) {
    if (options.inProcess === true) {
      for (const { key, cell } of pending) {
        await new Promise((r) => setImmediate(r));
        if (signal?.aborted) throw abortError();
        const t0 = performance.now();
        const result = runCellNamed(cell);
        accept(key, { result, durationMs: performance.now() - t0 });
      }
    } else {
      const own = options.pool === undefined ? new CellPool(Math.min(workers, pending.length)) : null;
      try {
        await runPooled(pending, own ?? options.pool!, accept, signal);
      } finally {
        await own?.destroy();
      }
    }
  }

  const keys = [...done.keys()].sort();
  const out: CellResult[] = [];
  const timings: CellTiming[] = [];
  for (const key of keys) {
    const c = done.get(key)!;
    out.push(c.result);
    timings.push({
      key,
      durationMs: c.durationMs,
      cached: c.cached,
      ...(c.sharedFrom !== undefined && !c.cached ? { shared: true as const } : {}),
    });
  }
  return { version: VERSION, config, cells: out, timings };
}

function runCellNamed(cell: CellConfig): CellResult {
  try {
    return runCell(cell);
  } catch (err) {
    throw new Error(`cell ${describeCell(cell)} failed: ${(err as Error).message}`);
  }
}

async function runPooled(
  pending: readonly { key: string; cell: CellConfig }[],
  pool: CellPool,
  accept: (key: string, c: CachedCell) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  // every queued cell listens on this one signal: hundreds of listeners are expected, not a leak
  const inner = new AbortController();
  manyListeners(inner.signal);
  const onAbort = () => inner.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let failure: Error | null = null;
  try {
    await Promise.all(
      pending.map(({ key, cell }) =>
        pool.run(key, cell, inner.signal).then(
          (c: CachedCell) => accept(key, c),
          (err: unknown) => {
            if (failure === null && !signal?.aborted) {
              const msg = err instanceof Error ? err.message : String(err);
              failure = new Error(`cell ${describeCell(cell)} failed: ${msg}`);
            }
            inner.abort();
          },
        ),
      ),
    );
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) throw abortError();
  if (failure !== null) throw failure;
}
