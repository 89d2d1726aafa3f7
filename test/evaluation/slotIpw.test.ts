// Position-wise IPW (issue 27): per-slot values, the per-row value (Open Bandit Pipeline's) and the
// per-impression value, against hand-computed numbers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { slotIpw } from '../../src/evaluation/slotIpw.js';

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
