import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPolicy } from '../../src/policies/index.js';
import type { LedgerEntry } from '../../src/privacy/index.js';
import { makeStream, play } from './helpers.js';

const stream = makeStream(29, 300, 5, 4);

test('zCDP-Episodic with cTrigger = 1 certifies its bound at most once every d rounds, not every round', () => {
  const d = 4;
  const T = 240;
  const p = createPolicy('zcdp-episodic', {
    dim: d,
    horizon: T,
    seed: 1,
    noiseSeed: 1,
    epsilon: 1,
    cTrigger: 1,
  });
  play(p, stream, 0, T);
  const s = p.privacy();
  assert.equal(s.releases, T); // every round starts an episode: M_max = T releases of rho / T
  assert.ok(s.epsilon <= 1 + 1e-12);
  // equal consecutive releases merge into one ledger entry: one entry per certified bound
  const ledger = (p.snapshot().state as { base: { ledger: { head: LedgerEntry[]; tail: LedgerEntry[] } } })
    .base.ledger;
  const entries = ledger.head.length + ledger.tail.length;
  assert.ok(entries <= T / d + 1, `${entries} distinct bounds in ${T} rounds`);
  assert.ok(entries >= 10, `${entries}: the bound is refreshed as V grows`);
});
