/**
 * Number formatting shared by every report table (Markdown, HTML and the console): mean with the
 * half-width of its 95% confidence interval, percentages, p-values.
 */
import type { SeedStats } from '../types.js';

/**
 * Formats a finite number with `digits` decimals; non-finite values become `'n/a'`.
 *
 * @example
 * formatNumber(0.712345, 3); // returns '0.712'
 */
export function formatNumber(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  const s = x.toFixed(digits);
  // avoid '-0.000'
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/**
 * Half-width of the 95% confidence interval of `stats` (0 for a single seed).
 *
 * @example
 * ciHalfWidth({ n: 3, mean: 1, std: 0.1, ci95: [0.9, 1.1], perSeed: [], seeds: [] }); // returns ~0.1
 */
export function ciHalfWidth(stats: SeedStats): number {
  return (stats.ci95[1] - stats.ci95[0]) / 2;
}

/**
 * `mean ± half-width of the 95% CI`, e.g. for a table cell.
 *
 * @example
 * formatMeanCi({ n: 2, mean: 0.5, std: 0.01, ci95: [0.49, 0.51], perSeed: [], seeds: [] }, 3);
 * // returns '0.500 ± 0.010'
 */
export function formatMeanCi(stats: SeedStats | null | undefined, digits = 4): string {
  if (stats === null || stats === undefined) return 'n/a';
  return `${formatNumber(stats.mean, digits)} ± ${formatNumber(ciHalfWidth(stats), digits)}`;
}

/**
 * A ratio as a percentage with `digits` decimals (0.967 -> '96.7%').
 *
 * @example
 * formatPercent(0.9671); // returns '96.7%'
 */
export function formatPercent(ratio: number | null | undefined, digits = 1): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return 'n/a';
  return `${formatNumber(100 * ratio, digits)}%`;
}

/**
 * A signed relative difference as a percentage (0.015 -> '+1.5%').
 *
 * @example
 * formatSignedPercent(-0.0123); // returns '-1.2%'
 */
export function formatSignedPercent(ratio: number | null | undefined, digits = 1): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return 'n/a';
  const s = formatNumber(100 * ratio, digits);
  return `${s.startsWith('-') ? '' : '+'}${s}%`;
}

/**
 * A p-value: three significant decimals, `'<0.001'` below 0.001, `'n/a'` for NaN.
 *
 * @example
 * formatPValue(0.0042); // returns '0.004'
 */
export function formatPValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return 'n/a';
  if (p < 0.001) return '<0.001';
  return p.toFixed(3);
}
