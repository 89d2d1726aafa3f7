/**
 * Run time of an output directory summed over the invocations that built it with this code (a
 * resumed run or a re-render from the cell cache adds its own share), kept in `<outDir>/timing.json`
 * (the real-data reproduction's rule): a re-render then still reports what the cells cost. Time
 * spent under another cache version starts over (its cells are never reused: their keys differ).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheVersion } from '../../codeFingerprint.js';
import { writeAtomic } from '../../writeAtomic.js';

/** The summed timing of an output directory. */
export interface AccumulatedTiming {
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
  /** Cells run (not taken from the cache), summed. */
  readonly cellsRun: number;
  readonly invocations: number;
}

/**
 * Adds this invocation's wall and CPU seconds and cells run to `<outDir>/timing.json` and returns the sums.
 *
 * @example
 * accumulateTiming('results/exact', 12.5, 20.1, 1152).invocations; // returns 1 on a fresh directory
 */
export function accumulateTiming(
  outDir: string,
  wallSeconds: number,
  cpuSeconds: number,
  cellsRun: number,
): AccumulatedTiming {
  const path = join(outDir, 'timing.json');
  const version = cacheVersion();
  const stored = existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as Partial<AccumulatedTiming> & { cacheVersion?: string })
    : null;
  const before =
    stored !== null && stored.cacheVersion === version
      ? {
          wallSeconds: stored.wallSeconds ?? 0,
          cpuSeconds: stored.cpuSeconds ?? 0,
          cellsRun: stored.cellsRun ?? 0,
          invocations: stored.invocations ?? 0,
        }
      : { wallSeconds: 0, cpuSeconds: 0, cellsRun: 0, invocations: 0 };
  const out: AccumulatedTiming = {
    wallSeconds: before.wallSeconds + wallSeconds,
    cpuSeconds: before.cpuSeconds + cpuSeconds,
    cellsRun: before.cellsRun + cellsRun,
    invocations: before.invocations + 1,
  };
  writeAtomic(path, `${JSON.stringify({ ...out, cacheVersion: version }, null, 2)}\n`);
  return out;
}

/**
 * The run-time sentence of a section.
 *
 * @example
 * runTimeLine(t, 1152, '2 x AMD EPYC'); // returns 'Run time: 341.9 s wall, 53.4 s CPU ...'
 */
export function runTimeLine(t: AccumulatedTiming, cells: number, machine: string): string {
  return `Run time: ${t.wallSeconds.toFixed(1)} s wall, ${t.cpuSeconds.toFixed(1)} s CPU (user + system, worker threads included${t.invocations > 1 ? `; summed over the ${t.invocations} invocations that built this output, re-renders from the cell cache included` : ''}) for ${t.cellsRun} cells run (${cells} cells in the study) on ${machine}, shared with other jobs (wall time is not an idle-machine figure; an idle two-core machine needs about CPU / 2).`;
}
