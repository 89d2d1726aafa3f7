// JDP-LinUCB's ledger counts every tree node it releases, also the nodes a rewind re-releases
// (issue 24 item 3): rewound to round 16, running rounds 17-31 again releases the nodes created at
// 17..31 a second time, on the same records. Record 17 is then in 8 node releases (levels 0-3,
// twice each): the ledger must charge at least that (it charges per level the most releases of one
// node: 2 + 2 + 2 + 2 + 1 for level 4's node at 16, released once). Before the mechanisms room the
// ledger counted 5 releases, one per level opened.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPolicy, jdpParameters, loadPolicy, type Policy } from '../../src/policies/index.js';
import { makeStream, roundFeatures } from './helpers.js';

const T = 64;
const stream = makeStream(21, T, 3, 2);

function playRounds(p: Policy, from: number, to: number): void {
  for (let t = from; t <= to; t++) {
    p.select(roundFeatures(stream, t - 1), 3);
    p.update(stream.means[(t - 1) * 3]!);
  }
}

test('JDP-LinUCB: a rewind to round 16 and rounds 17-31 run twice count every node re-release', () => {
  const p = createPolicy('jdp-linucb', { dim: 2, horizon: T, seed: 1, noiseSeed: 2, epsilon: 1 });
  const { s } = jdpParameters(1, 1e-5, T, 2, 0.05);
  const rhoNode = 1 / (2 * s * s);
  playRounds(p, 1, 16);
  const at16 = p.snapshot();
  assert.equal(p.privacy().releases, 16);
  assert.ok(Math.abs(p.privacy().rho! - 5 * rhoNode) <= 1e-12 * rhoNode); // levels 0..4 opened
  playRounds(p, 17, 31);
  p.restore(at16, { rewind: true });
  playRounds(p, 17, 31);
  const twice = p.privacy();
  assert.equal(twice.releases, 16 + 15 + 15, 'every node release is counted');
  assert.ok(twice.rho! >= 8 * rhoNode * (1 - 1e-12), `rho ${twice.rho} < 8 node releases of record 17`);
  assert.ok(Math.abs(twice.rho! - 9 * rhoNode) <= 1e-12 * rhoNode, `rho ${twice.rho! / rhoNode} node costs`);
  // a third pass: levels 0-3 three times
  p.restore(at16, { rewind: true });
  playRounds(p, 17, 31);
  assert.equal(p.privacy().releases, 61);
  assert.ok(Math.abs(p.privacy().rho! - 13 * rhoNode) <= 1e-12 * rhoNode);
  // the passes live in the snapshot: the rewound policy's own save loads and counts on
  const q = loadPolicy(p.save());
  assert.equal(q.privacy().releases, 61);
  playRounds(q, 32, 33);
  assert.equal(q.privacy().releases, 63);
  // round 32 opens level 5, round 33 re-uses level 0 (already charged three times): one more cost
  assert.ok(Math.abs(q.privacy().rho! - 14 * rhoNode) <= 1e-12 * rhoNode);
});
