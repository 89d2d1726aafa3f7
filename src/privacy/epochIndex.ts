/**
 * The epoch a user-level policy is in: 'lifetime' (always 0), a period in days on a clock (epochs
 * aligned to 1970-01-01T00:00Z: epoch k covers [k P, (k + 1) P) milliseconds since the Unix epoch),
 * or a period in rewards offered (kept or dropped; in simulations and on the service).
 */

/** How epochs are measured. */
export type EpochSpec =
  | { readonly kind: 'lifetime' }
  | { readonly kind: 'days'; readonly days: number }
  | { readonly kind: 'rounds'; readonly rounds: number };

const DAY_MS = 86_400_000;

/**
 * The epoch index at clock time `nowMs` (ms since the Unix epoch) after `offered` rewards.
 *
 * @example
 * epochIndex({ kind: 'days', days: 30 }, Date.UTC(1970, 1, 1), 0); // returns 1
 */
export function epochIndex(spec: EpochSpec, nowMs: number, offered: number): number {
  switch (spec.kind) {
    case 'lifetime':
      return 0;
    case 'rounds':
      return Math.floor(offered / spec.rounds);
    case 'days': {
      if (!Number.isFinite(nowMs) || nowMs < 0) {
        throw new RangeError(
          `epochIndex: the clock must give a finite time >= 0 (ms since 1970). Got ${nowMs}.`,
        );
      }
      return Math.floor(nowMs / (spec.days * DAY_MS));
    }
  }
}

/** Words for an epoch spec: 'lifetime', '30-day epoch', '1000-reward epoch'. */
export function describeEpoch(spec: EpochSpec): string {
  switch (spec.kind) {
    case 'lifetime':
      return 'lifetime';
    case 'days':
      return `${spec.days}-day epoch`;
    case 'rounds':
      return `${spec.rounds}-reward epoch`;
  }
}
