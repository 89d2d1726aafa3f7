/**
 * JSON with object keys sorted at every level, so that equal data always give the same bytes
 * (cache keys, byte-identical result files). Arrays keep their order; `undefined` members are
 * dropped like `JSON.stringify` does; non-finite numbers are refused (they are not JSON).
 *
 * @example
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // returns '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function canonicalJson(value: unknown, indent = 0): string {
  return JSON.stringify(sortKeys(value, '$'), null, indent);
}

function sortKeys(value: unknown, path: string): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new RangeError(`canonicalJson: ${path} is ${value}, which JSON cannot represent.`);
  }
  if (Array.isArray(value)) return value.map((v, i) => sortKeys(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v, `${path}.${k}`);
    }
    return out;
  }
  return value;
}
