// RDP -> (epsilon, delta) conversions (src/privacy/conversion.ts): the per-order formulas against
// mpmath, the improved conversion against the CKS zCDP conversion (a second method), the choice of
// the order on a grid (ties, the edge flag) and the delta check. Kills the StrykerJS survivors of
// the privacy scope in this file (docs/privacy.md, "Mutation testing").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertDelta, rdpOrderToEpsilon, rdpToEpsilon, zcdpToEpsilon } from '../../src/privacy/index.js';
import { relClose } from './reference.js';

test('rdpOrderToEpsilon matches mpmath for both conversions', () => {
  // mpmath (dps 30): classic rdp - ln(delta)/(a-1); improved rdp + ln(1-1/a) - (ln delta + ln a)/(a-1)
  const cases: readonly [number, number, number, number, number][] = [
    [1, 2, 1e-5, 12.512925464970229, 11.126631103850338],
    [0.3, 1.5, 1e-6, 27.931021115928548, 26.02147861104411],
    [2.5, 32, 1e-3, 2.7228308154510366, 2.579284184788078],
  ];
  for (const [rdp, a, delta, classic, improved] of cases) {
    const where = `rdp=${rdp} alpha=${a} delta=${delta}`;
    relClose(rdpOrderToEpsilon(rdp, a, delta, 'classic'), classic, 1e-14, `classic ${where}`);
    relClose(rdpOrderToEpsilon(rdp, a, delta, 'improved'), improved, 1e-14, `improved ${where}`);
  }
});

test('the improved RDP conversion of alpha rho on a fine grid equals the CKS zCDP conversion', () => {
  // a rho-zCDP mechanism has eps_rdp(alpha) = alpha rho; the infimum over alpha of the improved
  // conversion is the CKS epsilon, which zcdp.ts finds by root search (a second method)
  const orders = Float64Array.from({ length: 20000 }, (_, i) => 1.001 + i * 0.005);
  for (const [rho, delta] of [
    [0.05, 1e-5],
    [0.4496, 1e-5],
    [2, 1e-8],
  ] as const) {
    const rdp = orders.map((a) => a * rho);
    const grid = rdpToEpsilon(orders, rdp, delta, 'improved');
    const cks = zcdpToEpsilon(rho, delta, 'improved');
    assert.ok(grid.epsilon >= cks * (1 - 1e-12), `grid ${grid.epsilon} below the infimum ${cks}`);
    relClose(grid.epsilon, cks, 1e-5, `rho=${rho} delta=${delta}`);
    const classic = rdpToEpsilon(orders, rdp, delta, 'classic');
    relClose(classic.epsilon, zcdpToEpsilon(rho, delta, 'classic'), 1e-5, `classic rho=${rho}`);
    assert.equal(grid.edge, false);
  }
});

test('rdpToEpsilon: the smallest epsilon, the first order on a tie, and the edge flag', () => {
  const delta = 1e-5;
  const L = -Math.log(delta);
  // classic: orders 2 and 3 with rdp 0 and L/2 both give exactly L
  const tie = rdpToEpsilon([2, 3], [0, L / 2], delta, 'classic');
  assert.equal(tie.epsilon, L);
  assert.equal(tie.order, 2, 'a tie names the first order');
  const cases: readonly [number[], number[], number, boolean][] = [
    // [orders, rdp, expected order, expected edge]
    [[2, 4, 8], [5, 0.2, 5], 4, false], // interior minimum
    [[2, 4, 8], [0, 20, 20], 2, true], // first order
    [[2, 4, 8], [5, 5, 0], 8, true], // last order
    [[4], [0.5], 4, false], // a single order is not an edge of anything
    [[2, 3], [0.5, 9], 2, true],
    [[2, 3], [9, 0.5], 3, true],
  ];
  for (const [orders, rdp, order, edge] of cases) {
    const r = rdpToEpsilon(orders, rdp, delta, 'classic');
    const where = `orders ${orders} rdp ${rdp}`;
    assert.equal(r.order, order, where);
    assert.equal(r.edge, edge, where);
    const at = orders.indexOf(order);
    assert.equal(r.epsilon, rdpOrderToEpsilon(rdp[at]!, order, delta, 'classic'), where);
  }
  // epsilon is clamped at 0 (a tiny rdp at a large order with delta near 1)
  assert.equal(rdpToEpsilon([1000], [1e-9], 0.999, 'improved').epsilon, 0);
});

test('assertDelta refuses everything but a number in (0, 1)', () => {
  for (const bad of [0, 1, -0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '0.5', null, undefined]) {
    assert.throws(() => assertDelta(bad, 'delta'), /delta must be in \(0, 1\)/, String(bad));
  }
  assertDelta(1e-5);
  assertDelta(0.5);
});
