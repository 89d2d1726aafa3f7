import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { rdpToEpsilon } from '../../src/privacy/conversion.js';
import {
  EXTENDED_ORDERS,
  eventRho,
  gaussianEvent,
  subsampledGaussianRdp,
  subsampledGaussianRdpCurve,
  zcdpToEpsilon,
} from '../../src/privacy/index.js';
import { loadReference, relClose } from './reference.js';

test('integer orders match the exact mpmath binomial sum (rel. 1e-9), including extreme corners', () => {
  const ref = loadReference();
  assert.ok(ref.integer.length >= 300);
  for (const c of ref.integer) {
    const got = subsampledGaussianRdp(c.q, c.sigma, c.order);
    relClose(got, Number(c.rdp), 1e-9, `q=${c.q} sigma=${c.sigma} order=${c.order}`);
  }
});

test('fractional orders (MTZ 2019 series) match mpmath numerical integration (rel. 1e-9)', () => {
  const ref = loadReference();
  assert.ok(ref.fractional.length >= 30);
  for (const c of ref.fractional) {
    const got = subsampledGaussianRdp(c.q, c.sigma, c.order);
    relClose(got, Number(c.rdp), 1e-9, `q=${c.q} sigma=${c.sigma} order=${c.order}`);
  }
});

test('differential: at q = 1 the RDP is alpha/(2 sigma^2) and matches the zCDP path', () => {
  for (const sigma of [0.3, 1, 7.5, 1000]) {
    const rho = eventRho(gaussianEvent(1, sigma));
    for (const a of [1.5, 2, 3.25, 64, 1024])
      relClose(subsampledGaussianRdp(1, sigma, a), a * rho, 1e-15, `a=${a}`);
    // zCDP conversion is the classic RDP conversion minimised over all orders: a fine grid gets close from above
    const orders = Array.from({ length: 4000 }, (_, i) => 1 + (i + 1) * 0.01);
    const curve = subsampledGaussianRdpCurve(1, sigma, orders, 1, new Float64Array(orders.length));
    const viaRdp = rdpToEpsilon(orders, curve, 1e-5, 'classic').epsilon;
    const viaZcdp = zcdpToEpsilon(rho, 1e-5);
    assert.ok(viaRdp >= viaZcdp * (1 - 1e-12), `rdp ${viaRdp} < zcdp ${viaZcdp}`);
    if (sigma < 1000) relClose(viaRdp, viaZcdp, 1e-4, `sigma=${sigma}`);
  }
});

test('integer and fractional paths agree near integer orders (continuity)', () => {
  for (const [q, sigma] of [
    [0.3, 1],
    [0.1, 0.5],
    [0.7, 2],
    [1e-4, 3],
  ] as const) {
    for (const a of [2, 3, 5, 9]) {
      const mid = subsampledGaussianRdp(q, sigma, a);
      relClose(subsampledGaussianRdp(q, sigma, a + 1e-9), mid, 1e-6, `q=${q} sigma=${sigma} a=${a}+`);
      relClose(subsampledGaussianRdp(q, sigma, a - 1e-9), mid, 1e-6, `q=${q} sigma=${sigma} a=${a}-`);
    }
  }
});

test('RDP is finite, non-negative, increasing in q and in the order, decreasing in sigma', () => {
  const orders = EXTENDED_ORDERS.filter((_, i) => i % 3 === 0);
  fc.assert(
    fc.property(
      fc.double({ min: 1e-4, max: 0.95, noNaN: true }),
      fc.double({ min: 0.3, max: 50, noNaN: true }),
      fc.constantFrom(...orders),
      (q, sigma, a) => {
        const v = subsampledGaussianRdp(q, sigma, a);
        assert.ok(Number.isFinite(v) && v >= 0);
        assert.ok(subsampledGaussianRdp(Math.min(1, q * 1.05), sigma, a) >= v * (1 - 1e-9));
        assert.ok(subsampledGaussianRdp(q, sigma * 1.05, a) <= v * (1 + 1e-9));
        assert.ok(subsampledGaussianRdp(q, sigma, a * 1.1) >= v * (1 - 1e-9));
      },
    ),
    { numRuns: 40, seed: 3 },
  );
});

test('composition over 10^7 steps scales the curve exactly', () => {
  const orders = [2, 32, 1024];
  const one = subsampledGaussianRdpCurve(0.01, 5, orders, 1, new Float64Array(3));
  const many = subsampledGaussianRdpCurve(0.01, 5, orders, 1e7, new Float64Array(3));
  for (let i = 0; i < 3; i++) relClose(many[i]!, 1e7 * one[i]!, 1e-15, `order ${orders[i]}`);
});

test('the curve on a frozen grid (kept per q and sigma) equals the direct values, at every steps count', () => {
  // the first call fills the realm's memo, the later ones read it: each must equal the direct sum
  const grid = EXTENDED_ORDERS;
  fc.assert(
    fc.property(
      fc.double({ min: 1e-4, max: 0.99, noNaN: true }),
      fc.double({ min: 0.3, max: 20, noNaN: true }),
      fc.integer({ min: 1, max: 100_000 }),
      (q, sigma, steps) => {
        for (let rep = 0; rep < 2; rep++) {
          const got = subsampledGaussianRdpCurve(q, sigma, grid, steps, new Float64Array(grid.length));
          for (let i = 0; i < grid.length; i++) {
            assert.equal(got[i], steps * subsampledGaussianRdp(q, sigma, grid[i]!), `order ${grid[i]}`);
          }
        }
      },
    ),
    { numRuns: 30 },
  );
  // an unfrozen grid is never kept: a change to it is seen by the next call
  const mutable = [2, 3];
  const a = subsampledGaussianRdpCurve(0.1, 1, mutable, 1, new Float64Array(2));
  mutable[1] = 64;
  const b = subsampledGaussianRdpCurve(0.1, 1, mutable, 1, new Float64Array(2));
  assert.equal(b[0], a[0]);
  assert.equal(b[1], subsampledGaussianRdp(0.1, 1, 64));
  assert.notEqual(b[1], a[1]);
});
