/**
 * What a snapshot stores of a policy's pending-round table (snapshot format 4): the rows of the
 * occupied slots only (those whose ticket is >= 0), d values each, in slot order. Used by the
 * policies' snapshot and restore and by the format 3 -> 4 migration step.
 */

/** The number of occupied slots (ticket >= 0). */
export function occupiedCount(tickets: Float64Array): number {
  let n = 0;
  for (let s = 0; s < tickets.length; s++) if (tickets[s]! >= 0) n++;
  return n;
}

/** The rows of `table` (d values per slot) of the occupied slots, in slot order. */
export function occupiedRows(tickets: Float64Array, table: Float64Array, d: number): Float64Array {
  const out = new Float64Array(occupiedCount(tickets) * d);
  let o = 0;
  for (let s = 0; s < tickets.length; s++) {
    if (!(tickets[s]! >= 0)) continue;
    out.set(table.subarray(s * d, (s + 1) * d), o);
    o += d;
  }
  return out;
}

/** Inverse of {@link occupiedRows}: puts `rows` back into their slots of `table`, the others zeroed. */
export function fillOccupiedRows(
  tickets: Float64Array,
  rows: Float64Array,
  table: Float64Array,
  d: number,
): void {
  table.fill(0);
  let o = 0;
  for (let s = 0; s < tickets.length; s++) {
    if (!(tickets[s]! >= 0)) continue;
    table.set(rows.subarray(o, o + d), s * d);
    o += d;
  }
}
