import type { ParamValue } from './types.js';

/**
 * Stable id of a (policy, epsilon, params) setting: cells that differ only by seed share it.
 *
 * @example
 * settingId('adaprivate-ts', 1, { v: 1, batchSize: 300 }); // returns 'adaprivate-ts|eps=1|batchSize=300,v=1'
 */
export function settingId(
  policy: string,
  epsilon: number | null,
  params: Readonly<Record<string, ParamValue>>,
): string {
  const p = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join(',');
  return `${policy}|eps=${epsilon ?? 'none'}|${p}`;
}
