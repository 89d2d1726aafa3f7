/**
 * Validation of one decision of a log (contract 4), shared by the JSON Lines and CSV readers. Every
 * refusal is a `DataFormatError` naming the file, the 1-based line, the field, the value and the rule,
 * e.g. `logs.jsonl:17: propensity must be a number in (0, 1]. Got 0.`
 */
import { DataFormatError } from '../data/DataFormatError.js';
import { type DecisionRecord, PROPENSITY_KINDS, type PropensityKind } from './DecisionRecord.js';

/** Tolerance of the checks `sum(probabilities) = 1` and `probabilities[chosen] = propensity`. */
export const PROBABILITY_TOLERANCE = 1e-6;

/** Where a decision sits in its file. */
export interface RecordPosition {
  readonly file: string;
  /** Line of the decision (JSON Lines) or of its first row (CSV). */
  readonly line: number;
  /** CSV: the line of each arm's row (defaults to `line`). */
  readonly armLines?: readonly number[];
}

export interface ValidateOptions {
  /** The feature dimension every arm must have; null for the first decision (it sets d). */
  readonly dim: number | null;
  /** Accept decisions without a propensity (they are left out of IPW, SNIPW, DR, replay). Default false. */
  readonly allowMissingPropensity?: boolean;
}

const show = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/**
 * Checks one decision object against the log format and returns it typed. Throws a
 * `DataFormatError` (file and line in the message) at the first violation.
 *
 * @example
 * validateDecisionRecord({ eventId: 'e', arms: [{ id: 'a', features: [1] }], chosen: 0, propensity: 0 },
 *   { file: 'logs.jsonl', line: 3 }, { dim: 1 });
 * // throws DataFormatError 'logs.jsonl:3: propensity must be a number in (0, 1]. Got 0.'
 */
export function validateDecisionRecord(
  value: unknown,
  at: RecordPosition,
  options: ValidateOptions,
): DecisionRecord {
  const fail = (reason: string, line = at.line): never => {
    throw new DataFormatError(at.file, line, reason);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(`a decision must be a JSON object. Got ${show(value)}.`);
  }
  const o = value as Record<string, unknown>;
  if (typeof o.eventId !== 'string' || o.eventId === '') {
    fail(`eventId must be a non-empty string. Got ${show(o.eventId)}.`);
  }
  if (o.time !== undefined && typeof o.time !== 'string')
    fail(`time must be an ISO-8601 string. Got ${show(o.time)}.`);
  const arms = o.arms;
  if (!Array.isArray(arms) || arms.length === 0) {
    return fail(`arms must be a non-empty array of {id, features}. Got ${show(arms)}.`);
  }
  let dim = options.dim;
  for (let i = 0; i < arms.length; i++) {
    const line = at.armLines?.[i] ?? at.line;
    const arm = arms[i] as { id?: unknown; features?: unknown } | null;
    if (typeof arm !== 'object' || arm === null)
      fail(`arms[${i}] must be an object {id, features}. Got ${show(arm)}.`, line);
    const a = arm as { id?: unknown; features?: unknown };
    if (typeof a.id !== 'string') fail(`arms[${i}].id must be a string. Got ${show(a.id)}.`, line);
    const f = a.features;
    if (!Array.isArray(f) || f.length === 0) {
      fail(`arms[${i}].features must be a non-empty array of numbers. Got ${show(f)}.`, line);
    }
    const feats = f as unknown[];
    if (dim === null) dim = feats.length;
    if (feats.length !== dim) {
      fail(
        `arms[${i}].features must have ${dim} values (the feature dimension of this log). Got ${feats.length}.`,
        line,
      );
    }
    for (let j = 0; j < feats.length; j++) {
      const x = feats[j];
      if (typeof x !== 'number' || !Number.isFinite(x)) {
        fail(`arms[${i}].features[${j}] must be a finite number. Got ${show(x)}.`, line);
      }
    }
  }
  const k = arms.length;
  const chosen = o.chosen;
  if (typeof chosen !== 'number' || !Number.isInteger(chosen) || chosen < 0 || chosen >= k) {
    fail(`chosen must be an integer index into arms, in [0, ${k}). Got ${show(chosen)}.`);
  }
  const chosenLine = at.armLines?.[chosen as number] ?? at.line;
  const p = o.propensity;
  const ip = o.inversePropensity;
  if (
    ip !== undefined &&
    ip !== null &&
    (typeof ip !== 'number' || !(ip >= 1 && ip < Number.POSITIVE_INFINITY))
  ) {
    fail(
      `inversePropensity must be a finite number >= 1 (an estimate of 1 / propensity). Got ${show(ip)}.`,
      chosenLine,
    );
  }
  const kind = o.propensityKind;
  if (kind !== undefined && kind !== null && !PROPENSITY_KINDS.includes(kind as PropensityKind)) {
    fail(`propensityKind must be one of ${PROPENSITY_KINDS.join(', ')}. Got ${show(kind)}.`, chosenLine);
  }
  if (kind === 'geometric-resampling' && typeof ip !== 'number') {
    fail("propensityKind 'geometric-resampling' needs inversePropensity (the resampling count).", chosenLine);
  }
  const cap = o.resamplingCap;
  if (
    cap !== undefined &&
    cap !== null &&
    (typeof cap !== 'number' || !Number.isSafeInteger(cap) || cap < 1)
  ) {
    fail(`resamplingCap must be a positive integer. Got ${show(cap)}.`, chosenLine);
  }
  if (typeof cap === 'number' && typeof ip === 'number' && ip > cap) {
    fail(`inversePropensity (${ip}) cannot exceed resamplingCap (${cap}).`, chosenLine);
  }
  const slot = o.slot;
  if (
    slot !== undefined &&
    slot !== null &&
    (typeof slot !== 'number' || !Number.isSafeInteger(slot) || slot < 0)
  ) {
    fail(
      `slot must be a non-negative integer (the display position, 0 = top). Got ${show(slot)}.`,
      chosenLine,
    );
  }
  const unit = o.unit;
  if (unit !== undefined && unit !== null && (typeof unit !== 'string' || unit === '')) {
    fail(`unit must be a non-empty string (the user or device id). Got ${show(unit)}.`, chosenLine);
  }
  const floor = o.explorationFloor;
  if (
    floor !== undefined &&
    floor !== null &&
    (typeof floor !== 'number' || !(floor > 0 && floor <= 1 / k + PROBABILITY_TOLERANCE))
  ) {
    fail(
      `explorationFloor must be a number in (0, 1/${k}] (gamma / K: every arm's least probability). Got ${show(floor)}.`,
      chosenLine,
    );
  }
  if (typeof floor === 'number' && typeof p === 'number' && p < floor - PROBABILITY_TOLERANCE) {
    fail(`propensity (${p}) cannot be below the explorationFloor (${floor}).`, chosenLine);
  }
  if (p === undefined || p === null) {
    if (options.allowMissingPropensity !== true && typeof ip !== 'number') {
      fail(
        'propensity is missing: every decision needs the logging probability of its chosen arm, in (0, 1] (or allow missing propensities: they are then left out of IPW, SNIPW, DR and replay).',
        chosenLine,
      );
    }
  } else if (typeof p !== 'number' || !(p > 0 && p <= 1)) {
    fail(`propensity must be a number in (0, 1]. Got ${show(p)}.`, chosenLine);
  }
  if (o.probabilities !== undefined && o.probabilities !== null) {
    const probs = o.probabilities;
    if (!Array.isArray(probs) || probs.length !== k) {
      fail(`probabilities must be an array of ${k} numbers (one per arm). Got ${show(probs)}.`);
    }
    let sum = 0;
    (probs as unknown[]).forEach((q, i) => {
      if (typeof q !== 'number' || !(q >= 0 && q <= 1)) {
        fail(`probabilities[${i}] must be a number in [0, 1]. Got ${show(q)}.`, at.armLines?.[i] ?? at.line);
      }
      sum += q as number;
    });
    if (Math.abs(sum - 1) > PROBABILITY_TOLERANCE) {
      fail(`probabilities must sum to 1 (within ${PROBABILITY_TOLERANCE}). Got a sum of ${sum}.`);
    }
    const pc = (probs as number[])[chosen as number]!;
    if (typeof p === 'number' && Math.abs(pc - p) > PROBABILITY_TOLERANCE) {
      fail(`probabilities[chosen] must equal propensity (${p}). Got ${pc}.`, chosenLine);
    }
  }
  const r = o.reward;
  if (r !== undefined && r !== null && (typeof r !== 'number' || !(r >= 0 && r <= 1))) {
    fail(`reward must be a number in [0, 1] (or absent when not logged). Got ${show(r)}.`, chosenLine);
  }
  if (o.model !== undefined && typeof o.model !== 'string')
    fail(`model must be a string. Got ${show(o.model)}.`);
  if (
    o.modelVersion !== undefined &&
    (typeof o.modelVersion !== 'number' || !Number.isFinite(o.modelVersion))
  ) {
    fail(`modelVersion must be a number. Got ${show(o.modelVersion)}.`);
  }
  return o as unknown as DecisionRecord;
}
