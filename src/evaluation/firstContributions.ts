/**
 * The contribution bound of a user-level private evaluation: of the given rounds, each unit (the
 * decision log's `unit`) keeps its first k in log order and the rest are left out. The rule looks at
 * nothing but the order of a unit's own rows (never a reward's value), so removing one unit's rows
 * changes no other unit's kept rows and at most k kept rows in all.
 */
import type { DecisionLog } from './DecisionLog.js';

/** What the bound kept. */
export interface KeptContributions {
  /** The kept rounds, in log order. */
  readonly rounds: Int32Array;
  /** Rounds left out because their unit had already k kept rows. */
  readonly dropped: number;
  /** Distinct units among the given rounds. */
  readonly units: number;
}

/**
 * @param rounds - candidate rounds in log order (the evaluable ones).
 * @param k - contributions per unit, a positive integer.
 * @example
 * firstContributions(log, evaluableRounds(log), 1); // each unit's first evaluable decision
 */
export function firstContributions(log: DecisionLog, rounds: Int32Array, k: number): KeptContributions {
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new RangeError(`firstContributions: contributions per unit must be a positive integer. Got ${k}.`);
  }
  const units = log.units;
  if (units === null) {
    throw new RangeError(
      `${log.source}: a user-level evaluation needs the unit of every decision (the 'unit' field); no decision has one.`,
    );
  }
  const seen = new Map<string, number>();
  const kept: number[] = [];
  let dropped = 0;
  for (const t of rounds) {
    const u = units[t];
    if (u === null || u === undefined) {
      throw new RangeError(
        `${log.source}:${log.lines[t]}: a user-level evaluation needs the unit of every decision (the 'unit' field); this decision has none.`,
      );
    }
    const c = seen.get(u) ?? 0;
    seen.set(u, c + 1);
    if (c < k) kept.push(t);
    else dropped++;
  }
  return Object.freeze({ rounds: Int32Array.from(kept), dropped, units: seen.size });
}
