/**
 * The canonical JSON text of JSON data: `JSON.stringify` with the keys of every object sorted
 * (numerically for array-index keys, then by UTF-16 code units), so that the same data gives the
 * same text whatever order its keys were written or stored in (a database that reorders a JSON
 * document, a hand-formatted file). What the snapshot MAC is computed over.
 *
 * Cost: O(size of the data) plus the key sorts.
 *
 * @example
 * canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }); // returns '{"a":[{"c":3,"d":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortKeys) ?? '';
}

function sortKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  // a null-prototype object: an own key '__proto__' (JSON.parse makes one) stays an own key
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(value).sort()) out[k] = (value as Record<string, unknown>)[k];
  return out;
}
