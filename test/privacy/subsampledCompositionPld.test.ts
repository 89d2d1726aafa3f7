import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  gaussianEpsilon,
  subsampledGaussianEpsilon,
  subsampledGaussianExactEpsilon,
} from '../../src/privacy/index.js';
import { subsampledCompositionPld } from '../../src/privacy/subsampledCompositionPld.js';
import { loadExactReference } from './exactReference.js';

/** upper within `rel` above the exact value and never below it; lower never above it. */
function brackets(b: { upper: number; lower: number }, exact: number, rel: number, where: string): void {
  assert.ok(b.upper >= exact, `${where}: upper ${b.upper} below the exact ${exact}`);
  assert.ok(
    b.upper <= exact * (1 + rel),
    `${where}: upper ${b.upper} more than ${rel} above the exact ${exact}`,
  );
  assert.ok(b.lower <= exact, `${where}: lower ${b.lower} above the exact ${exact}`);
}

test('PLD of Gaussian compositions (q = 1) brackets Gaussian DP, upper within 1%', () => {
  for (const [s, m] of [
    [3.73, 1],
    [10, 20],
    [30, 100],
  ] as const) {
    const exact = gaussianEpsilon(1e-5, Math.sqrt(m) / s);
    brackets(subsampledCompositionPld([], m / (s * s)).epsilon(1e-5), exact, 0.01, `gauss s=${s} m=${m}`);
  }
});

test('PLD of one subsampled Gaussian brackets its closed form, upper within 1%', () => {
  for (const [q, s] of [
    [0.3, 1.94],
    [0.01, 1],
    [0.5, 5],
  ] as const) {
    const exact = subsampledGaussianExactEpsilon(1e-5, q, s);
    const pld = subsampledCompositionPld([{ q, noiseMultiplier: s, count: 1 }], 0);
    brackets(pld.epsilon(1e-5), exact, 0.01, `q=${q} s=${s}`);
  }
});

test('PLD of two subsampled Gaussians brackets the mpmath integral, upper within 1%', () => {
  for (const c of loadExactReference().twoSubsampled) {
    const pld = subsampledCompositionPld([{ q: c.q, noiseMultiplier: c.sigma, count: c.compositions }], 0);
    brackets(pld.epsilon(c.delta), Number(c.epsilon), 0.01, `q=${c.q} s=${c.sigma} m=2`);
  }
});

test('PLD compositions: upper - lower is within the stated F h, and never looser than RDP', () => {
  for (const [q, s, m] of [
    [0.3, 2, 10],
    [0.1, 1.5, 50],
  ] as const) {
    const pld = subsampledCompositionPld([{ q, noiseMultiplier: s, count: m }], 0);
    const b = pld.epsilon(1e-5);
    assert.ok(b.upper - b.lower <= pld.factors * pld.discretisation * 1.05 + 1e-9, `gap q=${q}`);
    assert.ok(b.lower <= b.upper);
    const rdp = subsampledGaussianEpsilon(s, { q, delta: 1e-5, steps: m }).epsilon;
    assert.ok(b.upper < rdp, `pld ${b.upper} < rdp ${rdp}`);
    // more compositions cost more
    const fewer = subsampledCompositionPld([{ q, noiseMultiplier: s, count: Math.floor(m / 2) }], 0).epsilon(
      1e-5,
    );
    assert.ok(fewer.upper < b.upper);
  }
});
