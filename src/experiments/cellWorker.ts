/**
 * Worker-thread entry of the experiment runner (loaded by tinypool from the compiled
 * `dist/src/experiments/cellWorker.js`): runs one cell and returns its result and duration.
 */
import { performance } from 'node:perf_hooks';
import type { CachedCell } from './cellCache.js';
import { runCell } from './runCell.js';
import type { CellConfig } from './types.js';

/** Runs `cell`; the result is structured-cloned back to the main thread. */
export default function runCellTask(cell: CellConfig): CachedCell {
  const t0 = performance.now();
  const result = runCell(cell);
  return { result, durationMs: performance.now() - t0 };
}
