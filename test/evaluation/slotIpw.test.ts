// Position-wise IPW (issue 27): per-slot values, the per-row value (Open Bandit Pipeline's) and the
// per-impression value, against hand-computed numbers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combineSlotRuns } from '../../src/evaluation/combineSlotRuns.js';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import { evaluatedFromPolicy } from '../../src/evaluation/evaluatedFromPolicy.js';
import { opeInputFromLog } from '../../src/evaluation/opeInputFromLog.js';
import { runPolicyOnLog } from '../../src/evaluation/runPolicyOnLog.js';
import { slotIpw } from '../../src/evaluation/slotIpw.js';
import { createPolicy } from '../../src/policies/index.js';

// Two impressions x two slots, 3 candidate items per row.
// row 0 (imp 1, slot 0): logged item 0, p 0.5, r 1, target [0.5, 0.25, 0.25] -> w 1,   w r = 1
// row 1 (imp 1, slot 1): logged item 1, p 0.25, r 1, target [0, 1, 0]      -> w 4,   w r = 4
// row 2 (imp 2, slot 0): logged item 2, p 0.5, r 0, target [0, 0, 1]       -> w 2,   w r = 0
// row 3 (imp 2, slot 1): logged item 0, p 0.2, r 1, target [0.1, 0.9, 0]   -> w 0.5, w r = 0.5
const input = {
  rewards: Float64Array.of(1, 1, 0, 1),
  actions: Int32Array.of(0, 1, 2, 0),
  propensities: Float64Array.of(0.5, 0.25, 0.5, 0.2),
  offsets: Int32Array.of(0, 3, 6, 9, 12),
  target: Float64Array.of(0.5, 0.25, 0.25, 0, 1, 0, 0, 0, 1, 0.1, 0.9, 0),
};

describe('slotIpw', () => {
  it('per slot, per row and per impression, as computed by hand', () => {
    const r = slotIpw(input, Int32Array.of(0, 1, 0, 1), 1.959964);
    assert.equal(r.slots.length, 2);
    const [s0, s1] = r.slots;
    assert.equal(s0!.slot, 0);
    assert.equal(s0!.rows, 2);
    assert.ok(Math.abs(s0!.value - 0.5) < 1e-15); // (1 + 0) / 2
    assert.ok(Math.abs(s1!.value - 2.25) < 1e-15); // (4 + 0.5) / 2
    assert.ok(Math.abs(r.perRow - 5.5 / 4) < 1e-15); // OBP's mean over rows
    assert.ok(Math.abs(r.perImpression - 2.75) < 1e-15);
    // slot 0: sample sd of (1, 0) = sqrt(0.5); half-width z sqrt(0.5 / 2) = z / 2
    assert.ok(Math.abs(s0!.interval[1] - (0.5 + 1.959964 / 2)) < 1e-12);
    // slot 1: sample var of (4, 0.5) = 6.125; per impression: var 0.25 + 3.0625
    assert.ok(Math.abs(r.perImpressionInterval[1] - (2.75 + 1.959964 * Math.sqrt(0.25 + 3.0625))) < 1e-12);
  });

  it('refuses a row without a slot and a slots array of the wrong length', () => {
    assert.throws(() => slotIpw(input, Int32Array.of(0, 1, -1, 1), 1.96), /round 2 has none/);
    assert.throws(() => slotIpw(input, Int32Array.of(0, 1), 1.96), /one entry per round \(4\)/);
  });
});

describe('position-wise IPW of built-in policies (issue 27)', () => {
  // 3 impressions x 2 slots, candidates a = [1, 0] and b = [0, 0.1], uniform logging (p 0.5):
  // (slot 0, slot 1) shown/click: (a 1, b 0), (b 1, a 1), (a 0, b 0)
  const shown = [
    ['a', 1, 0],
    ['b', 0, 1],
    ['b', 1, 0],
    ['a', 1, 1],
    ['a', 0, 0],
    ['b', 0, 1],
  ] as const;
  const log = decisionLogFromRecords(
    shown.map(([item, click, slot], t) => ({
      eventId: `r${t}`,
      arms: [
        { id: 'a', features: [1, 0] },
        { id: 'b', features: [0, 0.1] },
      ],
      chosen: item === 'a' ? 0 : 1,
      propensity: 0.5,
      reward: click,
      slot,
    })),
    'slots.jsonl',
  );

  it('LinUCB gives a probability 1 at every row and slot (its top item is a): the hand values', () => {
    const policy = createPolicy('linucb', { dim: 2, horizon: 6, seed: 1 });
    const target = runPolicyOnLog(log, evaluatedFromPolicy(policy));
    assert.deepEqual(Array.from(target), [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
    const z = 1.959964;
    const r = slotIpw(opeInputFromLog(log, target), Int32Array.from(log.slot!), z);
    // weight 2 on the rows that showed a: w r = 2, 0, 0 at slot 0 and 0, 2, 0 at slot 1
    assert.deepEqual(
      r.slots.map((s) => [s.slot, s.rows, s.value]),
      [
        [0, 3, 2 / 3],
        [1, 3, 2 / 3],
      ],
    );
    const half = (z * Math.sqrt(4 / 3)) / Math.sqrt(3); // sample sd of (2, 0, 0) is sqrt(4/3)
    assert.ok(Math.abs(r.slots[0]!.interval[1] - (2 / 3 + half)) < 1e-12);
    assert.ok(Math.abs(r.perRow - 4 / 6) < 1e-15);
    assert.ok(Math.abs(r.perImpression - 4 / 3) < 1e-15);
  });

  it('combineSlotRuns: mean of the runs, variance = mean within-run + between-run (by hand)', () => {
    const z = 2;
    const run = (v0: number, h0: number, v1: number, h1: number) => ({
      slots: [
        { slot: 0, rows: 3, value: v0, interval: [v0 - h0, v0 + h0] as const },
        { slot: 1, rows: 3, value: v1, interval: [v1 - h1, v1 + h1] as const },
      ],
      perRow: (v0 + v1) / 2,
      perImpression: v0 + v1,
      perImpressionInterval: [v0 + v1 - 1, v0 + v1 + 1] as const,
    });
    // slot 0: values 1 and 3 (between variance 2), half-widths 2 and 4 -> sd 1 and 2 (within (1 + 4) / 2)
    const c = combineSlotRuns([run(1, 2, 0.5, 2), run(3, 4, 0.5, 2)], z);
    assert.equal(c.slots[0]!.value, 2);
    const h0 = z * Math.sqrt(2.5 + 2);
    assert.ok(Math.abs(c.slots[0]!.interval[0] - (2 - h0)) < 1e-12);
    // slot 1: equal values, within variance 1 only
    assert.ok(Math.abs(c.slots[1]!.interval[1] - (0.5 + z)) < 1e-12);
    // per impression: values 1.5, 3.5 (between 2), half-widths 1 (within 0.25)
    assert.equal(c.perImpression, 2.5);
    assert.ok(Math.abs(c.perImpressionInterval[1] - (2.5 + z * Math.sqrt(2.25))) < 1e-12);
    assert.equal(c.perRow, 1.25);
    assert.throws(() => combineSlotRuns([], z), /at least one run/);
  });
});
