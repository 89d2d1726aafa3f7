/**
 * Unit counts in memory (the library's default {@link UnitCounterStore}): one record per unit that
 * contributed in the current epoch. Memory is bounded by the units of one epoch: at an epoch
 * boundary every older record is deleted (with a lifetime epoch the records of every unit ever seen
 * stay, as the per-lifetime bound needs them). Saved in the policy's snapshot, sorted by unit.
 */
import type { UnitCount } from './admitContribution.js';
import type { UnitCounterStore } from './UnitCounterStore.js';

function isCount(v: unknown): v is UnitCount {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  const nat = (x: unknown, min: number) => typeof x === 'number' && Number.isSafeInteger(x) && x >= min;
  return (
    nat(c.epoch, 0) &&
    nat(c.release, 0) &&
    nat(c.inRelease, 1) &&
    nat(c.releases, 1) &&
    (c.sampled === undefined || typeof c.sampled === 'boolean')
  );
}

export class MemoryUnitCounters implements UnitCounterStore {
  private readonly counts = new Map<string, UnitCount>();

  /** Units with a record (for tests and memory reports). */
  get size(): number {
    return this.counts.size;
  }

  get(unit: string): UnitCount | undefined {
    return this.counts.get(unit);
  }

  set(unit: string, count: UnitCount): void {
    this.counts.set(unit, count);
  }

  expireBefore(epoch: number): void {
    for (const [u, c] of this.counts) if (c.epoch < epoch) this.counts.delete(u);
  }

  toJSON(): unknown {
    return [...this.counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  load(json: unknown): void {
    if (!Array.isArray(json)) {
      throw new RangeError('MemoryUnitCounters: snapshot field must be an array of [unit, count] pairs.');
    }
    const next = new Map<string, UnitCount>();
    for (const e of json as unknown[]) {
      if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || e[0] === '' || !isCount(e[1])) {
        throw new RangeError(
          `MemoryUnitCounters: snapshot entry ${JSON.stringify(e)} is not a [unit, count] pair.`,
        );
      }
      next.set(e[0], e[1]);
    }
    this.counts.clear();
    for (const [u, c] of next) this.counts.set(u, c);
  }
}
