/**
 * Warnings about a log that make off-policy estimates fragile: decisions without a propensity or a
 * reward (left out), and tiny propensities (importance weights up to 1/p). Each warning is one
 * sentence naming the count, the first line concerned and the consequence.
 */
import type { DecisionLog } from './DecisionLog.js';
import { PROPENSITY_KINDS } from './DecisionRecord.js';

/** Propensities below this are "tiny" by default (weights can exceed 100). */
export const DEFAULT_TINY_PROPENSITY = 0.01;

/**
 * @param tinyPropensity - threshold in (0, 1); default 0.01.
 * @example
 * logWarnings(log); // returns [] for a complete log with propensities >= 0.01
 */
export function logWarnings(log: DecisionLog, tinyPropensity = DEFAULT_TINY_PROPENSITY): string[] {
  const out: string[] = [];
  let missingP = 0;
  let firstP = 0;
  let missingR = 0;
  let firstR = 0;
  let tiny = 0;
  let firstTiny = 0;
  let smallest = Number.POSITIVE_INFINITY;
  let monteCarlo = 0;
  let firstMc = 0;
  const mcCode = PROPENSITY_KINDS.indexOf('monte-carlo') + 1;
  for (let t = 0; t < log.rounds; t++) {
    const ip = log.inversePropensity[t]!;
    // the weight's scale: the logged inverse propensity where there is one
    const p = Number.isNaN(ip) ? log.propensity[t]! : 1 / ip;
    if (log.propensityKind[t] === mcCode && Number.isNaN(ip) && monteCarlo++ === 0) firstMc = log.lines[t]!;
    if (Number.isNaN(p)) {
      if (missingP++ === 0) firstP = log.lines[t]!;
    } else {
      if (p < tinyPropensity && tiny++ === 0) firstTiny = log.lines[t]!;
      smallest = Math.min(smallest, p);
    }
    if (Number.isNaN(log.reward[t]!) && missingR++ === 0) firstR = log.lines[t]!;
  }
  if (missingP > 0) {
    out.push(
      `${missingP} of ${log.rounds} decisions have no propensity (first at ${log.source}:${firstP}): they are left out of IPW, SNIPW, DM, DR and replay, which is unbiased only if the propensity is missing at random.`,
    );
  }
  if (missingR > 0) {
    out.push(
      `${missingR} of ${log.rounds} decisions have no reward (first at ${log.source}:${firstR}): they are left out; if rewards go missing more often for some outcomes (e.g. no click, no event), every estimate is biased.`,
    );
  }
  if (monteCarlo > 0) {
    out.push(
      `${monteCarlo} of ${log.rounds} propensities are Monte Carlo estimates without a logged inverse propensity (propensityKind 'monte-carlo', first at ${log.source}:${firstMc}): 1 / (an estimated probability) is a biased weight that under-weights rare actions; log inversePropensity (the service's geometric resampling) for unbiased IPW, SNIPW and DR.`,
    );
  }
  if (tiny > 0) {
    out.push(
      `${tiny} of ${log.rounds} propensities are below ${tinyPropensity} (smallest ${smallest.toPrecision(3)}, first at ${log.source}:${firstTiny}): importance weights reach ${(1 / smallest).toPrecision(3)}, so IPW, SNIPW and DR may have a large variance and their intervals may be unreliable.`,
    );
  }
  return out;
}

/**
 * Whether every evaluable decision was logged uniformly at random (propensity 1/K within 1e-6): the
 * condition under which replay is unbiased.
 *
 * @example
 * isUniformLogging(log); // returns true for a log written with --logging uniform
 */
export function isUniformLogging(log: DecisionLog): boolean {
  for (let t = 0; t < log.rounds; t++) {
    const p = log.propensity[t]!;
    if (Number.isNaN(p)) continue;
    const k = log.armOffsets[t + 1]! - log.armOffsets[t]!;
    if (Math.abs(p - 1 / k) > 1e-6) return false;
  }
  return true;
}
