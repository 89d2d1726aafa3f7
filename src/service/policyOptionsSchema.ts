/**
 * The JSON Schema of each policy's options as the HTTP API accepts them, generated from the policy
 * schema table (`POLICY_SCHEMAS`: which options a policy takes; `OPTION_RULES`: each option's
 * domain), so that a new policy or option appears in the OpenAPI document without an edit here.
 * Over HTTP `seed` is optional (the server draws a secure one) and `noiseSeed` is refused.
 *
 * The service validates the options with the same table (`parsePolicySpec`), whose messages name
 * the policy, the option, the value and the rule; this schema documents them (OpenAPI, generated
 * clients). It also states what the table's rules cannot say in JSON Schema alone: exactly one of
 * `epsilon` or `rho` for a private policy.
 */
import Type, { type TSchema } from 'typebox';
import {
  isOptionName,
  MAX_DELTA,
  OPTION_RULES,
  type OptionName,
  type OptionRule,
  type PolicyId,
  policyIds,
  policyInfo,
} from '../policies/index.js';

/** Options the HTTP API never accepts (the server draws privacy noise from a secure source only). */
export const REFUSED_HTTP_OPTIONS: readonly OptionName[] = ['noiseSeed'];

function ruleSchema(rule: OptionRule, description: string): TSchema {
  switch (rule.kind) {
    case 'positiveInt':
      return Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });
    case 'seed':
      return Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
    case 'enum':
      return Type.Enum([...rule.values], { description });
    case 'vector':
      return Type.Array(Type.Number(), { description: `${description} (dim numbers)` });
    case 'boolean':
      return Type.Boolean({ description });
    case 'number': {
      const bounds: Record<string, number> = {};
      if (Number.isFinite(rule.min)) bounds[rule.minOpen ? 'exclusiveMinimum' : 'minimum'] = rule.min;
      if (Number.isFinite(rule.max)) bounds[rule.maxOpen ? 'exclusiveMaximum' : 'maximum'] = rule.max;
      return Type.Number({ ...bounds, description });
    }
  }
}

/** The options object of policy `id` over HTTP (additional properties refused). */
export function policyOptionsSchema(id: PolicyId): TSchema {
  const info = policyInfo(id);
  const properties: Record<string, TSchema> = {};
  for (const name of info.options) {
    if (!isOptionName(name)) throw new Error(`policyOptionsSchema: '${name}' of ${id} has no rule.`);
    if (REFUSED_HTTP_OPTIONS.includes(name)) continue;
    const d = info.defaults[name];
    const description =
      name === 'delta'
        ? `delta (default ${String(d)}; at most ${MAX_DELTA} unless allowLargeDelta is true)`
        : name === 'seed'
          ? 'Seed of the exploration stream (default: a secure random seed, stored with the model)'
          : d === undefined
            ? name
            : `${name} (default ${JSON.stringify(d)})`;
    properties[name] = ruleSchema(OPTION_RULES[name], description);
  }
  const required = ['dim', 'horizon'];
  return {
    type: 'object',
    additionalProperties: false,
    required,
    properties,
    ...(info.isPrivate
      ? {
          oneOf: [
            { required: ['epsilon'], not: { required: ['rho'] } },
            { required: ['rho'], not: { required: ['epsilon'] } },
          ],
        }
      : {}),
    description: `Options of ${info.displayName} (docs/policies.md).`,
  };
}

/** `policyOptionsSchema` of every policy id, in table order. */
export function everyPolicyOptionsSchema(): readonly (readonly [PolicyId, TSchema])[] {
  return policyIds.map((id) => [id, policyOptionsSchema(id)] as const);
}
