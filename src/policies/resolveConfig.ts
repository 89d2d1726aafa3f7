/**
 * Validates policy options against the registry and returns the frozen configuration with every
 * default filled in. Messages name the policy, the option, the value and the rule, e.g.
 * `AdaPrivate-TS: batchSize must be a positive integer. Got 0.`
 */
import type { PolicyId } from './Policy.js';
import type { PolicyConfigMap } from './PolicyOptions.js';
import { OPTION_RULES, type OptionRule, type PolicyInfo, policyInfo } from './policyInfo.js';

function show(value: unknown): string {
  if (typeof value === 'number') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function describeRule(rule: OptionRule): string {
  switch (rule.kind) {
    case 'positiveInt':
      return 'a positive integer';
    case 'seed':
      return 'a non-negative safe integer';
    case 'enum':
      return `one of ${rule.values.map((v) => `'${v}'`).join(', ')}`;
    case 'vector':
      return 'an array of dim finite numbers';
    case 'number': {
      const lo = rule.min === Number.NEGATIVE_INFINITY ? '(-inf' : `${rule.minOpen ? '(' : '['}${rule.min}`;
      const hi = rule.max === Number.POSITIVE_INFINITY ? 'inf)' : `${rule.max}${rule.maxOpen ? ')' : ']'}`;
      return `a finite number in ${lo}, ${hi}`;
    }
  }
}

function valid(rule: OptionRule, value: unknown, dim: number): boolean {
  switch (rule.kind) {
    case 'positiveInt':
      return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
    case 'seed':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
    case 'enum':
      return typeof value === 'string' && rule.values.includes(value);
    case 'vector':
      return (
        Array.isArray(value) &&
        value.length === dim &&
        value.every((x) => typeof x === 'number' && Number.isFinite(x))
      );
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
      if (rule.minOpen ? value <= rule.min : value < rule.min) return false;
      if (rule.maxOpen ? value >= rule.max : value > rule.max) return false;
      return true;
    }
  }
}

/**
 * Validates `options` for policy `id` and returns the frozen configuration (defaults filled in,
 * `priorMean` always present, exactly one of `epsilon`/`rho` for private policies).
 *
 * @example
 * resolveConfig('lints', { dim: 2, horizon: 10, seed: 1 }).v; // returns 1
 */
export function resolveConfig<I extends PolicyId>(id: I, options: unknown): PolicyConfigMap[I] {
  const info = policyInfo(id);
  const who = info.displayName;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${who}: options must be an object. Got ${show(options)}.`);
  }
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (given[key] === undefined) continue;
    if (!info.options.includes(key)) {
      throw new RangeError(
        `${who}: unknown option '${key}' for policy '${id}'. Accepted options: ${info.options.join(', ')}.`,
      );
    }
  }
  for (const key of ['dim', 'horizon', 'seed']) {
    if (given[key] === undefined) throw new RangeError(`${who}: option '${key}' is required.`);
  }
  const dimRaw = given.dim;
  const dim = typeof dimRaw === 'number' ? dimRaw : 0;
  const out: Record<string, unknown> = {};
  for (const key of info.options) {
    const value = given[key] !== undefined ? given[key] : info.defaults[key];
    if (value === undefined) continue;
    const rule: OptionRule | undefined = (OPTION_RULES as Readonly<Record<string, OptionRule>>)[key];
    if (rule === undefined) throw new Error(`${who}: internal error, no rule for option '${key}'.`);
    if (!valid(rule, value, dim)) {
      throw new RangeError(`${who}: ${key} must be ${describeRule(rule)}. Got ${show(value)}.`);
    }
    out[key] = Array.isArray(value) ? Object.freeze([...(value as number[])]) : value;
  }
  if (out.priorMean === undefined) out.priorMean = Object.freeze(new Array<number>(dim).fill(0));
  if (info.isPrivate) {
    const hasEps = out.epsilon !== undefined;
    const hasRho = out.rho !== undefined;
    if (hasEps === hasRho) {
      throw new RangeError(
        `${who}: exactly one of epsilon or rho must be given for a private policy. Got ${
          hasEps ? 'both' : 'neither'
        }.`,
      );
    }
  }
  if (info.isPrivate) resolveUnitOptions(who, info, out);
  if (out.adaptiveSetting !== 'tuned' && out.lambda0 !== undefined) {
    throw new RangeError(
      `${who}: lambda0 is used only with adaptiveSetting 'tuned'. Got adaptiveSetting 'default'.`,
    );
  }
  // every accepted option was checked against its rule above: this is the typed configuration
  return Object.freeze(out) as unknown as PolicyConfigMap[I];
}

/**
 * The privacy-unit options of a private policy (in place, already checked against their rules):
 * 'user' needs a policy that supports it and `releasesPerEpoch`, and fills `contributionsPerRelease`
 * (default 1); the bounds and epochs are refused with 'event' (absent `privacyUnit`), and
 * `epochDays` and `epochRounds` exclude each other.
 */
function resolveUnitOptions(who: string, info: PolicyInfo, out: Record<string, unknown>): void {
  const unit = out.privacyUnit ?? 'event';
  if (unit === 'event') {
    for (const key of ['contributionsPerRelease', 'releasesPerEpoch', 'epochDays', 'epochRounds']) {
      if (out[key] !== undefined) {
        throw new RangeError(
          `${who}: ${key} is used only with privacyUnit 'user'. Got privacyUnit ${show(out.privacyUnit ?? 'event')}${out.privacyUnit === undefined ? ' (the default)' : ''}.`,
        );
      }
    }
    return;
  }
  if (!info.supportsUserLevel) {
    throw new RangeError(`${who}: privacyUnit 'user' is not supported: ${info.userLevelRefusal}.`);
  }
  if (out.releasesPerEpoch === undefined) {
    throw new RangeError(
      `${who}: privacyUnit 'user' needs releasesPerEpoch (m, a positive integer: at most m releases a unit takes part in per epoch; the noise is calibrated for m).`,
    );
  }
  if (out.epochDays !== undefined && out.epochRounds !== undefined) {
    throw new RangeError(
      `${who}: give at most one of epochDays and epochRounds (neither: one epoch, the lifetime). Got both.`,
    );
  }
  out.contributionsPerRelease ??= 1;
}
