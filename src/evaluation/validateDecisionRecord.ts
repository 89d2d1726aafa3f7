/**
 * Validation of one decision of a log (contract 4), shared by the JSON Lines and CSV readers and
 * `decisionLogFromRecords`. Each field is checked against the one schema of the decision-log line
 * (`DecisionLogRecord`, src/service/decisionLogSchema.ts, with TypeBox), then the rules that relate
 * fields (one feature dimension per log, `chosen` an index into `arms`, probabilities summing to 1 and
 * agreeing with `propensity`, the exploration floor at most 1/K, ...). Every refusal is a
 * `DataFormatError` naming the file, the 1-based line, the field, the rule and the value, e.g.
 * `logs.jsonl:17: propensity must be a number in (0, 1]. Got 0.`
 */
import { Check, Errors } from 'typebox/schema';
import { DataFormatError } from '../data/DataFormatError.js';
import { DecisionLogRecord } from '../service/decisionLogSchema.js';
import type { DecisionRecord } from './DecisionRecord.js';

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
 * Checks one decision object against the log format and returns it typed (a property whose value is
 * null reads as absent). Throws a `DataFormatError` (file and line in the message) at the first
 * violation.
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
  const o: { [field: string]: unknown } = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) o[k] = v;
  if (!Check(DecisionLogRecord, o)) {
    const [, errors] = Errors(DecisionLogRecord, o);
    const { reason, path } = schemaReason(errors[0], o);
    return fail(reason, lineOf(path, o, at));
  }
  const arms = o.arms;
  const k = arms.length;
  let dim = options.dim;
  for (let i = 0; i < k; i++) {
    const n = arms[i]!.features.length;
    if (dim === null) dim = n;
    if (n !== dim) {
      fail(
        `arms[${i}].features must have ${dim} values (the feature dimension of this log). Got ${n}.`,
        at.armLines?.[i] ?? at.line,
      );
    }
  }
  const chosen = o.chosen;
  if (chosen >= k) fail(`chosen must be an integer index into arms, in [0, ${k}). Got ${show(chosen)}.`);
  const chosenLine = at.armLines?.[chosen] ?? at.line;
  const { propensity: p, inversePropensity: ip, propensityKind: kind, resamplingCap: cap } = o;
  if (kind === 'geometric-resampling' && ip === undefined) {
    fail("propensityKind 'geometric-resampling' needs inversePropensity (the resampling count).", chosenLine);
  }
  if (cap !== undefined && ip !== undefined && ip > cap) {
    fail(`inversePropensity (${ip}) cannot exceed resamplingCap (${cap}).`, chosenLine);
  }
  const floor = o.explorationFloor;
  if (floor !== undefined && floor > 1 / k + PROBABILITY_TOLERANCE) {
    fail(
      `explorationFloor must be a number in (0, 1/${k}] (gamma / K: every arm's least probability). Got ${show(floor)}.`,
      chosenLine,
    );
  }
  if (floor !== undefined && p !== undefined && p < floor - PROBABILITY_TOLERANCE) {
    fail(`propensity (${p}) cannot be below the explorationFloor (${floor}).`, chosenLine);
  }
  if (p === undefined && options.allowMissingPropensity !== true && ip === undefined) {
    fail(
      'propensity is missing: every decision needs the logging probability of its chosen arm, in (0, 1] (or allow missing propensities: they are then left out of IPW, SNIPW, DR and replay).',
      chosenLine,
    );
  }
  const probs = o.probabilities;
  if (probs !== undefined) {
    if (probs.length !== k) {
      fail(`probabilities must be an array of ${k} numbers (one per arm). Got ${show(probs)}.`);
    }
    let sum = 0;
    for (const q of probs) sum += q;
    if (Math.abs(sum - 1) > PROBABILITY_TOLERANCE) {
      fail(`probabilities must sum to 1 (within ${PROBABILITY_TOLERANCE}). Got a sum of ${sum}.`);
    }
    const pc = probs[chosen]!;
    if (p !== undefined && Math.abs(pc - p) > PROBABILITY_TOLERANCE) {
      fail(`probabilities[chosen] must equal propensity (${p}). Got ${pc}.`, chosenLine);
    }
  }
  return o;
}

/** One schema error as TypeBox reports it (the fields used here). */
interface SchemaError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: unknown;
}

/** A JSON Schema node of the decision-log schema, as far as the messages read it. */
interface SchemaNode {
  readonly type?: string;
  readonly format?: string;
  readonly minimum?: number;
  readonly exclusiveMinimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly minItems?: number;
  readonly items?: SchemaNode;
  readonly properties?: { readonly [name: string]: SchemaNode };
  readonly anyOf?: readonly SchemaNode[];
  readonly const?: unknown;
}

/** Fields of a CSV decision that come from its chosen row (their errors name that row's line). */
const CHOSEN_ROW_FIELDS = new Set([
  'propensity',
  'inversePropensity',
  'propensityKind',
  'resamplingCap',
  'slot',
  'unit',
  'explorationFloor',
  'reward',
]);

/** The line of a CSV decision's row that `path` (instance path segments) points into. */
function lineOf(path: readonly string[], o: { readonly [field: string]: unknown }, at: RecordPosition) {
  const [top, index] = path;
  if ((top === 'arms' || top === 'probabilities') && index !== undefined) {
    return at.armLines?.[Number(index)] ?? at.line;
  }
  if (top !== undefined && CHOSEN_ROW_FIELDS.has(top) && typeof o.chosen === 'number') {
    return at.armLines?.[o.chosen] ?? at.line;
  }
  return at.line;
}

/** The message of a schema error: the field, its rule (read from the schema) and the value. */
function schemaReason(
  error: SchemaError | undefined,
  o: { readonly [field: string]: unknown },
): { reason: string; path: string[] } {
  const path = (error?.instancePath ?? '').split('/').slice(1);
  const missing =
    error?.keyword === 'required'
      ? (error.params as { readonly requiredProperties?: readonly string[] }).requiredProperties?.[0]
      : undefined;
  if (missing !== undefined) path.push(missing);
  let node: SchemaNode | undefined = DecisionLogRecord as SchemaNode;
  let got: unknown = o;
  for (const segment of path) {
    node = node?.properties?.[segment] ?? node?.items;
    got = typeof got === 'object' && got !== null ? (got as { [k: string]: unknown })[segment] : undefined;
  }
  const name = path.map((s, i) => (/^[0-9]+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
  const rule = node === undefined ? 'valid' : describe(node);
  return {
    reason:
      missing !== undefined
        ? `${name} is missing: it must be ${rule}.`
        : `${name} must be ${rule}. Got ${show(got)}.`,
    path,
  };
}

/** A schema node's rule in words, e.g. 'a number in (0, 1]' or 'a non-empty array of {id, features}'. */
function describe(s: SchemaNode): string {
  if (s.anyOf !== undefined) return `one of ${s.anyOf.map((b) => String(b.const)).join(', ')}`;
  switch (s.type) {
    case 'integer':
      if (s.maximum === undefined && s.minimum === 0) return 'a non-negative integer';
      if (s.maximum === undefined && s.minimum === 1) return 'a positive integer';
      return `an integer${bounds(s)}`;
    case 'number': {
      const b = bounds(s);
      return b.startsWith(' in ') ? `a number${b}` : `a finite number${b}`;
    }
    case 'string':
      if (s.format === 'date-time') return 'an ISO-8601 date-time string';
      return s.minLength === 1 ? 'a non-empty string' : 'a string';
    case 'array': {
      const of = s.items === undefined ? 'values' : plural(s.items);
      return `${s.minItems === 1 ? 'a non-empty array' : 'an array'} of ${of}`;
    }
    case 'object':
      return `an object {${Object.keys(s.properties ?? {}).join(', ')}}`;
    default:
      return 'valid';
  }
}

function plural(s: SchemaNode): string {
  if (s.type === 'object') return `{${Object.keys(s.properties ?? {}).join(', ')}}`;
  if (s.type === 'number') return `finite numbers${bounds(s)}`;
  return `${s.type ?? 'value'}s`;
}

/** ' in (0, 1]', ' in [0, 1]', ' >= 1', ' > 0' or ''. */
function bounds(s: SchemaNode): string {
  const lo = s.exclusiveMinimum ?? s.minimum;
  const open = s.exclusiveMinimum !== undefined;
  if (lo !== undefined && s.maximum !== undefined) {
    return ` in ${open ? '(' : '['}${lo}, ${s.maximum}]`;
  }
  if (lo !== undefined) return ` ${open ? '>' : '>='} ${lo}`;
  if (s.maximum !== undefined) return ` <= ${s.maximum}`;
  return '';
}
