// The one contribution-bound rule: c rewards per release, m releases per epoch, first come first kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  admitContribution,
  MemoryUnitCounters,
  type UnitCount,
  UnitLedger,
} from '../../src/privacy/index.js';

const b = (c: number, m: number) => ({ contributionsPerRelease: c, releasesPerEpoch: m });

test('c = 1: the second reward of a unit in one release is dropped (perRelease)', () => {
  const first = admitContribution(undefined, 0, 1, b(1, 10));
  assert.equal(first.admission, 'kept');
  assert.equal(first.joins, true);
  assert.deepEqual(first.next, { epoch: 0, release: 1, inRelease: 1, releases: 1 });
  const second = admitContribution(first.next!, 0, 1, b(1, 10));
  assert.equal(second.admission, 'perRelease');
  assert.equal(second.next, null);
});

test('m = 2: the third release a unit joins in one epoch is dropped (perEpoch); a new epoch starts from zero', () => {
  let c: UnitCount | undefined;
  for (const release of [1, 2]) {
    const r = admitContribution(c, 5, release, b(1, 2));
    assert.equal(r.admission, 'kept');
    c = r.next!;
  }
  assert.equal(c!.releases, 2);
  assert.equal(admitContribution(c, 5, 3, b(1, 2)).admission, 'perEpoch');
  const next = admitContribution(c, 6, 3, b(1, 2));
  assert.equal(next.admission, 'kept');
  assert.deepEqual(next.next, { epoch: 6, release: 3, inRelease: 1, releases: 1 });
});

test('c = 3: rewards 1-3 of a release are kept (joining once), the fourth is dropped; the sampled flag is kept', () => {
  let c: UnitCount | undefined;
  for (let i = 0; i < 3; i++) {
    const r = admitContribution(c, 0, 7, b(3, 1));
    assert.equal(r.admission, 'kept');
    assert.equal(r.joins, i === 0);
    c = i === 0 ? { ...r.next!, sampled: false } : r.next!;
  }
  assert.equal(c!.inRelease, 3);
  assert.equal(c!.releases, 1);
  assert.equal(c!.sampled, false);
  assert.equal(admitContribution(c, 0, 7, b(3, 1)).admission, 'perRelease');
});

test('property: over any arrival sequence no unit exceeds c per release or m releases per epoch, and the kept set is the first arrivals', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 3 }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 })), { maxLength: 80 }),
      (c, m, arrivals) => {
        // arrivals: (unit, step) with step 0..3 meaning "advance the release by step // 2, the epoch by step // 3"
        const counts = new MemoryUnitCounters();
        let release = 1;
        let epoch = 0;
        const perRelease = new Map<string, number>();
        const perEpoch = new Map<string, Set<number>>();
        for (const [u, step] of arrivals) {
          if (step === 3) {
            epoch++;
            release++;
            counts.expireBefore(epoch);
          } else if (step === 2) release++;
          const unit = `u${u}`;
          const r = admitContribution(counts.get(unit), epoch, release, b(c, m));
          const kr = perRelease.get(`${unit}|${release}`) ?? 0;
          const ke = perEpoch.get(`${unit}|${epoch}`) ?? new Set<number>();
          // the independent count: keep iff both bounds still allow it
          const allowed = kr < c && (ke.has(release) || ke.size < m);
          assert.equal(r.admission === 'kept', allowed);
          if (r.next !== null) {
            counts.set(unit, r.next);
            perRelease.set(`${unit}|${release}`, kr + 1);
            ke.add(release);
            perEpoch.set(`${unit}|${epoch}`, ke);
          }
        }
        for (const v of perRelease.values()) assert.ok(v <= c);
        for (const v of perEpoch.values()) assert.ok(v.size <= m);
      },
    ),
    { numRuns: 300 },
  );
});

test('MemoryUnitCounters: expireBefore deletes older epochs; toJSON/load round-trip and refuse malformed entries', () => {
  const m = new MemoryUnitCounters();
  m.set('b', { epoch: 0, release: 1, inRelease: 1, releases: 1 });
  m.set('a', { epoch: 1, release: 2, inRelease: 1, releases: 1, sampled: true });
  const copy = new MemoryUnitCounters();
  copy.load(m.toJSON());
  assert.deepEqual(copy.get('a'), m.get('a'));
  m.expireBefore(1);
  assert.equal(m.size, 1);
  assert.equal(m.get('b'), undefined);
  assert.throws(
    () => copy.load([['', { epoch: 0, release: 1, inRelease: 1, releases: 1 }]]),
    /not a \[unit, count\]/,
  );
  assert.throws(
    () => copy.load([['x', { epoch: 0, release: 1, inRelease: 0, releases: 1 }]]),
    /not a \[unit, count\]/,
  );
  assert.equal(copy.size, 2, 'a refused load leaves the counts unchanged');
});

test('UnitLedger: per-epoch compositions are min(m, releases), cumulative their sum', () => {
  const l = new UnitLedger(3);
  for (const e of [0, 0, 0, 0, 0, 1, 2, 2]) l.record(e);
  assert.deepEqual(l.compositions(), { perEpoch: 3, cumulative: 3 + 1 + 2, epochs: 3, releases: 8 });
  const copy = new UnitLedger(3);
  copy.load(l.toJSON());
  assert.deepEqual(copy.compositions(), l.compositions());
  assert.throws(
    () =>
      copy.load([
        [0, 1],
        [0, 2],
      ]),
    /not an \[epoch, releases\] pair/,
  );
});
