// A parallel ledger folds the partitions of zCDP releases (Gaussian-only under the exact accountant)
// into one summary once more than FOLD_AT are kept: the guarantee it reports stays the one of the
// unfolded ledger (the maximum over partitions), the partition count stays exact, a release on a
// folded partition composes with the largest folded one (an upper bound), the snapshot stays small,
// and a snapshot of a folded ledger restores to the same ledger.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gaussianEvent, PrivacyLedger, subsampledGaussianEvent } from '../../src/privacy/index.js';
import { FOLD_AT, FOLD_KEEP } from '../../src/privacy/ledger.js';
import { relClose } from './reference.js';

const info = (partition: number) => ({ round: partition, partition, label: 'batch' });
const accountants = [undefined, 'exact'] as const;

function ledgerOf(accountant: (typeof accountants)[number]): PrivacyLedger {
  return new PrivacyLedger({
    delta: 1e-5,
    composition: 'parallel',
    ...(accountant === undefined ? {} : { accountant }),
  });
}

/** sigma of partition k: the largest cost (smallest sigma) on partition 5, which is folded early. */
const sigmaOf = (k: number) => (k === 5 ? 0.9 : 1.5 + (k % 7) * 0.1);

/** The guarantee of the releases `[partition, sigma][]` in a ledger that never folds (each alone, the max). */
function unfolded(accountant: (typeof accountants)[number], parts: readonly (readonly [number, number])[]) {
  // the guarantee of a parallel ledger is the maximum over partitions: the worst partition alone
  let worst: { epsilon: number; rho: number | null } = { epsilon: 0, rho: 0 };
  for (const [, sigma] of parts) {
    const one = ledgerOf(accountant);
    one.record(gaussianEvent(1, sigma), info(0));
    const s = one.spent();
    if (s.epsilon > worst.epsilon) worst = { epsilon: s.epsilon, rho: s.rho };
  }
  return worst;
}

for (const accountant of accountants) {
  const name = accountant ?? 'zcdp/rdp';

  test(`${name}: folding keeps the guarantee (the worst partition, folded early), the partition count and a small snapshot`, () => {
    const ledger = ledgerOf(accountant);
    const n = 3 * FOLD_AT;
    const parts: [number, number][] = [];
    for (let k = 0; k < n; k++) {
      ledger.record(gaussianEvent(1, sigmaOf(k)), info(k));
      parts.push([k, sigmaOf(k)]);
    }
    const s = ledger.spent();
    const want = unfolded(accountant, parts);
    relClose(s.epsilon, want.epsilon, 1e-12, 'epsilon');
    relClose(s.rho!, want.rho!, 1e-12, 'rho');
    assert.equal(s.partitions, n);
    assert.equal(s.releases, n);
    const json = ledger.toJSON();
    assert.equal(json.version, 3);
    assert.ok(json.folded !== undefined);
    assert.deepEqual(json.folded.ranges[0]?.[0], 0);
    assert.ok(json.partitions.length < FOLD_AT, `${json.partitions.length} partitions kept apart`);
    assert.ok(JSON.stringify(json).length < 40_000, `${JSON.stringify(json).length} bytes`);
  });

  test(`${name}: a folded ledger's snapshot restores to the same ledger, and both go on alike`, () => {
    const a = ledgerOf(accountant);
    for (let k = 0; k < 2 * FOLD_AT; k++) a.record(gaussianEvent(1, sigmaOf(k)), info(k));
    const b = PrivacyLedger.fromJSON(JSON.parse(JSON.stringify(a.toJSON())));
    assert.deepEqual(b.spent(), a.spent());
    for (let k = 2 * FOLD_AT; k < 3 * FOLD_AT; k++) {
      a.record(gaussianEvent(1, 1.7), info(k));
      b.record(gaussianEvent(1, 1.7), info(k));
    }
    // a release on a folded partition (5) and on a kept one
    for (const ledger of [a, b]) {
      ledger.record(gaussianEvent(1, 2), info(5));
      ledger.record(gaussianEvent(1, 2), info(3 * FOLD_AT - 1));
    }
    assert.deepEqual(b.spent(), a.spent());
    assert.deepEqual(b.toJSON(), a.toJSON());
  });

  test(`${name}: a release on a folded partition composes with the largest folded one; the count does not grow`, () => {
    const ledger = ledgerOf(accountant);
    const n = FOLD_AT + FOLD_KEEP + 8;
    for (let k = 0; k < n; k++) ledger.record(gaussianEvent(1, sigmaOf(k)), info(k));
    assert.equal(ledger.toJSON().folded?.ranges.length, 1, 'partition 5 is folded');
    ledger.record(gaussianEvent(1, 3), info(20)); // folded, and not the worst one
    const s = ledger.spent();
    assert.equal(s.partitions, n);
    assert.equal(s.releases, n + 1);
    // its true cost (sigma 1.5 + 6 * 0.1, then sigma 3) is below what the ledger charges it: the
    // worst folded partition (sigma 0.9) plus the new release, composed
    const truth = ledgerOf(accountant);
    truth.record(gaussianEvent(1, sigmaOf(20)), info(0));
    truth.record(gaussianEvent(1, 3), info(0));
    const bound = ledgerOf(accountant);
    bound.record(gaussianEvent(1, 0.9), info(0));
    bound.record(gaussianEvent(1, 3), info(0));
    assert.ok(s.epsilon >= truth.spent().epsilon);
    relClose(s.epsilon, bound.spent().epsilon, 1e-12, 'epsilon of the upper bound');
    relClose(s.rho!, bound.spent().rho!, 1e-12, 'rho of the upper bound');
  });
}

/** The subsampled release of partition k: the largest epsilon (smallest sigma) on partition 5. */
const subsampledOf = (k: number) => subsampledGaussianEvent(0.1, k === 5 ? 0.8 : 1.2 + (k % 3) * 0.2);
/** A Gaussian release weaker than every subsampled one above (so that partition 5 stays the worst). */
const weakOf = (k: number) => gaussianEvent(1, 8 + (k % 7) * 0.1);

for (const accountant of accountants) {
  const name = accountant ?? 'zcdp/rdp';

  test(`${name}: partitions with subsampled releases fold too, and the guarantee stays the worst partition's`, () => {
    const ledger = ledgerOf(accountant);
    const n = 3 * FOLD_AT;
    for (let k = 0; k < n; k++) ledger.record(k % 4 === 3 ? weakOf(k) : subsampledOf(k), info(k));
    // the same distinct releases, each on its own partition, in a ledger that never folds
    const want = ledgerOf(accountant);
    for (const [i, k] of [5, 0, 1, 2].entries()) want.record(subsampledOf(k), info(i));
    for (const [i, k] of [3, 7, 11, 15, 19, 23, 27].entries()) want.record(weakOf(k), info(10 + i));
    const got = ledger.spent();
    const w = want.spent();
    relClose(got.epsilon, w.epsilon, 1e-12, 'epsilon');
    relClose(got.epsilonLower ?? Number.NaN, w.epsilonLower ?? Number.NaN, 1e-12, 'epsilonLower');
    assert.equal(got.rho, null);
    if (accountant === 'exact') relClose(got.comparison!.epsilon, w.comparison!.epsilon, 1e-12, 'comparison');
    assert.equal(got.partitions, n);
    const json = ledger.toJSON();
    assert.ok(json.partitions.length < FOLD_AT);
    assert.ok(json.folded?.full !== undefined);
    // bounded: fewer than FOLD_AT partitions kept (with their curves) and the detailed log
    assert.ok(JSON.stringify(json).length < 140_000, `${JSON.stringify(json).length} bytes`);
    // restored, it reports the same and goes on alike (a release on a folded partition included)
    const b = PrivacyLedger.fromJSON(JSON.parse(JSON.stringify(json)));
    assert.deepEqual(b.spent(), got);
    for (const l of [ledger, b]) {
      l.record(subsampledOf(1), info(20));
      l.record(subsampledOf(1), info(n));
    }
    assert.deepEqual(b.spent(), ledger.spent());
    assert.deepEqual(b.toJSON(), ledger.toJSON());
  });

  test(`${name}: once only Gaussian partitions are kept, a restored ledger still counts the folded curves`, () => {
    const ledger = ledgerOf(accountant);
    for (let k = 0; k < 2 * FOLD_AT; k++) ledger.record(subsampledOf(k), info(k));
    for (let k = 2 * FOLD_AT; k < 4 * FOLD_AT; k++) ledger.record(weakOf(k), info(k));
    const json = ledger.toJSON();
    assert.ok(
      json.partitions.every(([, , curve]) => curve === null),
      'no curve kept apart',
    );
    const b = PrivacyLedger.fromJSON(JSON.parse(JSON.stringify(json)));
    assert.deepEqual(b.spent(), ledger.spent());
    const want = ledgerOf(accountant);
    want.record(subsampledOf(5), info(0));
    relClose(
      b.spent().epsilon,
      Math.max(want.spent().epsilon, ledgerWith(accountant, weakOf(0)).spent().epsilon),
      1e-12,
      'epsilon',
    );
  });

  test(`${name}: a subsampled release on a folded partition is charged at least its true cost`, () => {
    const ledger = ledgerOf(accountant);
    const n = FOLD_AT + FOLD_KEEP;
    for (let k = 0; k < n; k++) {
      ledger.record(subsampledOf(k), info(k));
      if (k === 3) ledger.record(subsampledOf(k), info(k)); // twice on partition 3 (sigma 1.2)
    }
    const before = ledger.spent();
    const strong = subsampledGaussianEvent(0.1, 0.7);
    ledger.record(strong, info(9)); // folded (sigma 1.2 once)
    const s = ledger.spent();
    assert.equal(s.partitions, n);
    const truth = ledgerOf(accountant);
    truth.record(subsampledOf(5), info(0)); // the worst partition, as before
    truth.record(subsampledOf(9), info(1));
    truth.record(strong, info(1));
    assert.ok(truth.spent().epsilon > before.epsilon, 'the re-released partition is now the worst');
    assert.ok(s.epsilon >= truth.spent().epsilon * (1 - 1e-12), `${s.epsilon} < ${truth.spent().epsilon}`);
    if (accountant === 'exact') {
      // the join of the folded compositions (sigma 0.8 once, 1.2 twice, 1.4 and 1.6 once) and the new one
      const bound = ledgerOf('exact');
      for (const k of [5, 0, 3, 1, 2]) bound.record(subsampledOf(k), info(0));
      bound.record(strong, info(0));
      relClose(s.epsilon, bound.spent().epsilon, 1e-12, 'epsilon of the join');
    }
  });
}

/** A ledger of one release `e` on partition 0. */
function ledgerWith(accountant: (typeof accountants)[number], e: ReturnType<typeof gaussianEvent>) {
  const l = ledgerOf(accountant);
  l.record(e, info(0));
  return l;
}

test('fromJSON refuses a malformed folded summary', () => {
  const ledger = ledgerOf('exact');
  for (let k = 0; k < FOLD_AT + 1; k++) ledger.record(gaussianEvent(1, 2), info(k));
  const good = ledger.toJSON();
  assert.ok(good.folded !== undefined);
  const folded = good.folded;
  const kept = good.partitions[0]![0];
  const cases: [string, unknown, RegExp][] = [
    ['no folded in version 3', { ...good, folded: undefined }, /only there/],
    ['folded in version 2', { ...good, version: 2 }, /only there/],
    ['negative rho', { ...good, folded: { ...folded, rho: -1 } }, /rho and mu2/],
    [
      'unsorted ranges',
      {
        ...good,
        folded: {
          ...folded,
          ranges: [
            [50, 60],
            [0, 10],
          ],
        },
      },
      /sorted/,
    ],
    [
      'a kept partition folded too',
      { ...good, folded: { ...folded, ranges: [[0, kept]] } },
      /both folded and kept/,
    ],
    ['a count that does not add up', { ...good, partitionCount: good.partitionCount + 1 }, /partitionCount/],
    [
      'a full curve of the wrong length',
      { ...good, folded: { ...folded, full: [1, 2] } },
      /one value per order/,
    ],
    [
      'a worst composition without the join',
      { ...good, folded: { ...folded, worst: [0, [[0.1, 1, 1]]], join: undefined } },
      /needs the join/,
    ],
    ['a sequential ledger', { ...good, composition: 'sequential' }, /only a parallel ledger/],
  ];
  for (const [why, json, message] of cases) {
    assert.throws(() => PrivacyLedger.fromJSON(JSON.parse(JSON.stringify(json))), message, why);
  }
  assert.deepEqual(PrivacyLedger.fromJSON(JSON.parse(JSON.stringify(good))).spent(), ledger.spent());
});

for (const accountant of accountants) {
  test(`${accountant ?? 'zcdp/rdp'}: a first subsampled release after a fold still counts the folded partitions' worst`, () => {
    const ledger = ledgerOf(accountant);
    for (let k = 0; k < FOLD_AT + FOLD_KEEP; k++) ledger.record(gaussianEvent(1, sigmaOf(k)), info(k));
    assert.ok(ledger.toJSON().folded !== undefined, 'partition 5 (the worst) is folded');
    const next = FOLD_AT + FOLD_KEEP;
    ledger.record(subsampledGaussianEvent(0.05, 3), info(next));
    // the same releases in a ledger that never folds: the worst Gaussian and the subsampled one
    const want = ledgerOf(accountant);
    want.record(gaussianEvent(1, 0.9), info(0));
    want.record(subsampledGaussianEvent(0.05, 3), info(1));
    const got = ledger.spent();
    relClose(got.epsilon, want.spent().epsilon, 1e-9, 'epsilon');
    if (accountant === 'exact') {
      relClose(got.comparison!.epsilon, want.spent().comparison!.epsilon, 1e-9, 'the RDP comparison');
    }
  });
}
