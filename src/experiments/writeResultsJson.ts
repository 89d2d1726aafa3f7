/**
 * The results file: `{ version, config, cells }` as canonical JSON (sorted keys, 2-space indent,
 * trailing newline). It holds no timings or timestamps, so the same config gives the same bytes
 * whatever the number of workers; timings go to a separate file.
 */
import { canonicalJson } from './canonicalJson.js';
import type { ExperimentResult } from './types.js';
import { writeAtomic } from './writeAtomic.js';

/**
 * The deterministic JSON text of a run.
 *
 * @example
 * resultsToJson(result).startsWith('{\n  "cells": ['); // returns true
 */
export function resultsToJson(result: ExperimentResult): string {
  return `${canonicalJson({ version: result.version, config: result.config, cells: result.cells }, 2)}\n`;
}

/**
 * Writes `resultsToJson(result)` to `path` atomically and, when `timingsPath` is given, the
 * (non-deterministic) timings to that file.
 *
 * @example
 * writeResultsJson(result, 'out/results.json', 'out/timings.json');
 */
export function writeResultsJson(result: ExperimentResult, path: string, timingsPath?: string): void {
  writeAtomic(path, resultsToJson(result));
  if (timingsPath !== undefined) writeAtomic(timingsPath, `${JSON.stringify(result.timings, null, 2)}\n`);
}
