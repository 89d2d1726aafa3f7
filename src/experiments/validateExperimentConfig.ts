/**
 * Validates an experiment description (parsed from JSON/YAML or built from CLI flags), fills in the
 * defaults and returns the frozen, normalised {@link ExperimentConfig} that the runner records
 * verbatim in every result file. The normalised form is itself a valid input.
 *
 * Accepted input (defaults in brackets):
 * - `name` [`'experiment'`]; `protocol` [`'full-information'`] or `'replay'`;
 * - `env`: `{ kind: 'synthetic', dim [20], arms [100], armsPerRound [5], thetaNorm [2], link ['logistic'],
 *   arrivalsPerUnit [absent: no users] }`
 *   or `{ kind: 'ratings', options: {...} }` (passed to the data module);
 * - `policies`: non-empty list of policy ids or `{ policy, params?, tune? }`; `params` maps a
 *   hyperparameter to one value or a list of values (cartesian product); `tune: true` sweeps the
 *   policy's SPEC tuning grid (`policyInfo(id).tuningGrid`), explicit `params` overriding it;
 * - `epsilons`: non-empty list of budgets > 0 (required when a private policy is listed);
 * - `delta` [1e-5] in (0, 1); `seeds`: a count N (seeds 1..N) or a list of distinct non-negative
 *   integers; `horizon`: positive integer; `checkpoints` [20]: positive integer <= horizon.
 */
import { isPolicyId, parsePolicyId, policyInfo } from '../policies/index.js';
import { ExperimentConfigError } from './ExperimentConfigError.js';
import type { EnvConfig, ExperimentConfig, ParamValue, PolicyGridEntry, Protocol } from './types.js';

const RESERVED = new Set(['dim', 'horizon', 'seed', 'epsilon', 'delta', 'rho', 'noiseSeed']);
const TOP_KEYS = new Set([
  'name',
  'env',
  'protocol',
  'policies',
  'epsilons',
  'delta',
  'seeds',
  'horizon',
  'checkpoints',
]);

function fail(msg: string): never {
  throw new ExperimentConfigError(`experiment config: ${msg}`);
}

const show = (v: unknown): string =>
  typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function posInt(path: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0)
    fail(`${path} must be a positive integer. Got ${show(v)}.`);
  return v;
}

function unknownKeys(path: string, obj: Record<string, unknown>, allowed: ReadonlySet<string>): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.has(k))
      fail(`${path} has an unknown field ${JSON.stringify(k)} (known: ${[...allowed].join(', ')}).`);
  }
}

function validateEnv(raw: unknown): EnvConfig {
  if (raw === undefined) raw = { kind: 'synthetic' };
  if (!isObject(raw)) fail(`env must be an object. Got ${show(raw)}.`);
  if (raw.kind === 'ratings') {
    unknownKeys('env', raw, new Set(['kind', 'options']));
    if (!isObject(raw.options)) fail(`env.options must be an object. Got ${show(raw.options)}.`);
    return { kind: 'ratings', options: raw.options };
  }
  if (raw.kind !== 'synthetic') fail(`env.kind must be 'synthetic' or 'ratings'. Got ${show(raw.kind)}.`);
  unknownKeys(
    'env',
    raw,
    new Set(['kind', 'dim', 'arms', 'armsPerRound', 'thetaNorm', 'link', 'arrivalsPerUnit']),
  );
  const dim = posInt('env.dim', raw.dim ?? 20);
  const arms = posInt('env.arms', raw.arms ?? 100);
  const armsPerRound = posInt('env.armsPerRound', raw.armsPerRound ?? 5);
  if (armsPerRound < 2 || armsPerRound > arms) {
    fail(`env.armsPerRound must be an integer in [2, arms = ${arms}]. Got ${armsPerRound}.`);
  }
  const thetaNorm = raw.thetaNorm ?? 2;
  if (typeof thetaNorm !== 'number' || !Number.isFinite(thetaNorm) || thetaNorm <= 0) {
    fail(`env.thetaNorm must be a finite number > 0. Got ${show(thetaNorm)}.`);
  }
  const link = raw.link ?? 'logistic';
  if (link !== 'logistic' && link !== 'linear')
    fail(`env.link must be 'logistic' or 'linear'. Got ${show(link)}.`);
  // absent unless given: the cell keys of environments without users stay as they were
  const users =
    raw.arrivalsPerUnit === undefined
      ? {}
      : { arrivalsPerUnit: posInt('env.arrivalsPerUnit', raw.arrivalsPerUnit) };
  return { kind: 'synthetic', dim, arms, armsPerRound, thetaNorm, link, ...users };
}

function validateParamValue(path: string, v: unknown): ParamValue {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return fail(`${path} must be a finite number or a string. Got ${show(v)}.`);
}

function validatePolicy(raw: unknown, i: number): PolicyGridEntry {
  const path = `policies[${i}]`;
  const entry: Record<string, unknown> = typeof raw === 'string' ? { policy: raw } : isObject(raw) ? raw : {};
  if (typeof raw !== 'string' && !isObject(raw))
    fail(`${path} must be a policy id or { policy, params?, tune? }. Got ${show(raw)}.`);
  unknownKeys(path, entry, new Set(['policy', 'params', 'tune']));
  const id = entry.policy;
  if (typeof id !== 'string' || !isPolicyId(id)) {
    fail(`${path}.policy must be a known policy id. Got ${show(id)}.`);
  }
  const info = policyInfo(id);
  if (entry.tune !== undefined && typeof entry.tune !== 'boolean')
    fail(`${path}.tune must be true or false. Got ${show(entry.tune)}.`);
  const rawParams = entry.params ?? {};
  if (!isObject(rawParams))
    fail(`${path}.params must be an object of values or value lists. Got ${show(rawParams)}.`);
  const merged: Record<string, unknown> = entry.tune === true ? { ...info.tuningGrid } : {};
  Object.assign(merged, rawParams);
  const params: Record<string, readonly ParamValue[]> = {};
  for (const k of Object.keys(merged).sort()) {
    if (RESERVED.has(k) || !info.options.includes(k)) {
      const usable = info.options.filter((o) => !RESERVED.has(o));
      fail(`${path}.params.${k} is not a hyperparameter of ${id} (usable: ${usable.join(', ')}).`);
    }
    const v = merged[k];
    const list = Array.isArray(v) ? v : [v];
    if (list.length === 0) fail(`${path}.params.${k} must have at least one value.`);
    const values = list.map((x, j) => validateParamValue(`${path}.params.${k}[${j}]`, x));
    if (new Set(values).size !== values.length)
      fail(`${path}.params.${k} has duplicate values: ${show(values)}.`);
    params[k] = Object.freeze(values);
  }
  return Object.freeze({ policy: id, params: Object.freeze(params) });
}

function validateSeeds(raw: unknown): number[] {
  if (typeof raw === 'number') {
    posInt('seeds', raw);
    return Array.from({ length: raw }, (_, i) => i + 1);
  }
  if (!Array.isArray(raw) || raw.length === 0)
    fail(`seeds must be a positive count or a non-empty list of seeds. Got ${show(raw)}.`);
  raw.forEach((s, i) => {
    if (typeof s !== 'number' || !Number.isSafeInteger(s) || s < 0)
      fail(`seeds[${i}] must be a non-negative integer. Got ${show(s)}.`);
  });
  if (new Set(raw).size !== raw.length) fail(`seeds must be distinct. Got ${show(raw)}.`);
  return raw as number[];
}

/**
 * Validates and normalises an experiment description.
 *
 * @example
 * validateExperimentConfig({ policies: ['lints'], seeds: 2, horizon: 100 }).seeds; // returns [1, 2]
 */
export function validateExperimentConfig(raw: unknown): ExperimentConfig {
  if (!isObject(raw)) fail(`must be an object. Got ${show(raw)}.`);
  unknownKeys('the top level', raw, TOP_KEYS);
  const name = raw.name ?? 'experiment';
  if (typeof name !== 'string' || name.length === 0)
    fail(`name must be a non-empty string. Got ${show(name)}.`);
  const env = validateEnv(raw.env);
  const protocol = raw.protocol ?? 'full-information';
  if (protocol !== 'full-information' && protocol !== 'replay') {
    fail(`protocol must be 'full-information' or 'replay'. Got ${show(protocol)}.`);
  }
  if (!Array.isArray(raw.policies) || raw.policies.length === 0) {
    fail(`policies must be a non-empty list. Got ${show(raw.policies)}.`);
  }
  const policies = raw.policies.map(validatePolicy);
  const anyPrivate = policies.some((p) => policyInfo(parsePolicyId(p.policy, 'policies')).isPrivate);
  const rawEps = raw.epsilons ?? [];
  if (!Array.isArray(rawEps)) fail(`epsilons must be a list of numbers. Got ${show(rawEps)}.`);
  const epsilons = rawEps.map((e, i) => {
    if (typeof e !== 'number' || !Number.isFinite(e) || e <= 0)
      fail(`epsilons[${i}] must be a finite number > 0. Got ${show(e)}.`);
    return e;
  });
  if (new Set(epsilons).size !== epsilons.length) fail(`epsilons must be distinct. Got ${show(epsilons)}.`);
  if (anyPrivate && epsilons.length === 0)
    fail('epsilons must list at least one budget when a private policy is run.');
  const delta = raw.delta ?? 1e-5;
  if (typeof delta !== 'number' || !(delta > 0 && delta < 1))
    fail(`delta must be a number in (0, 1). Got ${show(delta)}.`);
  if (raw.seeds === undefined) fail('seeds is required (a count N for seeds 1..N, or a list).');
  const seeds = validateSeeds(raw.seeds);
  if (raw.horizon === undefined) fail('horizon is required (a positive integer).');
  const horizon = posInt('horizon', raw.horizon);
  const checkpoints = posInt('checkpoints', raw.checkpoints ?? Math.min(20, horizon));
  if (checkpoints > horizon) fail(`checkpoints must be at most horizon (${horizon}). Got ${checkpoints}.`);
  return Object.freeze({
    name,
    env: Object.freeze(env),
    protocol: protocol as Protocol,
    policies: Object.freeze(policies),
    epsilons: Object.freeze(epsilons),
    delta,
    seeds: Object.freeze(seeds),
    horizon,
    checkpoints,
  });
}
