/**
 * The share of a run's rewards that a user-level policy dropped at its contribution bounds, from the
 * policy's own report (`privacy()` recorded in the cell result), or null when it reports none
 * (event-level policies).
 */
import type { PolicyPrivacy } from '../../../policies/index.js';
import type { CellResult } from '../../types.js';

/**
 * @example
 * droppedShareOf(cell); // returns e.g. 0.12 (12% of the rewards past the bounds), or null
 */
export function droppedShareOf(cell: CellResult): number | null {
  const p = cell.privacy as PolicyPrivacy | null;
  if (p === null || p.dropped === undefined || p.offered === undefined) return null;
  return p.offered === 0 ? 0 : p.dropped.total / p.offered;
}
