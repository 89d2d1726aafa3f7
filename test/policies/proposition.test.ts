// The paper's Proposition: with eta ~ N(0, sigma^2 I) on b, the private TS sample
// A^{-1}(b + eta) + xi, xi ~ N(0, v^2 A^{-1}), has covariance sigma^2 A^{-2} + v^2 A^{-1}.
//
// Test: M independent runs (seeds) of AdaPrivate-TS on the same public rounds (one arm, so A is
// fixed) release one noisy batch, then draw one TS sample each. For unit directions u, with the
// known mean mu = A^{-1}(lambda theta_0 + s), M * var_hat(u) / (u^T Sigma u) ~ chi^2_M, so
// z = (var_hat / u^T Sigma u - 1) / sqrt(2 / M) is ~N(0, 1); the mean offset along u is checked
// too. Each of the 18 checks rejects at |z| > 4.5 (two-sided p = 6.8e-6): false-alarm budget
// < 1.3e-4 for the whole test (and it is deterministic: fixed seeds).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BatchedRidgePolicy } from '../../src/policies/index.js';
import { createPaperPolicy as createPolicy } from './helpers.js';

const d = 3;
const M = 4000;
const Z = 4.5;

// public rounds: 12 fixed unit-norm features, rewards fixed
const xs: number[][] = [];
for (let t = 0; t < 12; t++) {
  const v = [Math.cos(t), Math.sin(1.7 * t), 0.3 + 0.1 * t];
  const n = Math.hypot(...v);
  xs.push(v.map((c) => c / n));
}
const rewards = xs.map((_, t) => (t % 3) / 2);

function matInv(a: number[][]): number[][] {
  const n = a.length;
  const m = a.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const piv = m[c]![c]!;
    for (let j = 0; j < 2 * n; j++) m[c]![j] = m[c]![j]! / piv;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]!;
      for (let j = 0; j < 2 * n; j++) m[r]![j] = m[r]![j]! - f * m[c]![j]!;
    }
  }
  return m.map((row) => row.slice(n));
}
const mul = (a: number[][], b: number[][]) =>
  a.map((row) => b[0]!.map((_, j) => row.reduce((s, v, k) => s + v * b[k]![j]!, 0)));

test('Proposition: Cov(theta~) = sigma^2 A^{-2} + v^2 A^{-1}', () => {
  const rho = 0.5; // sigma = 1
  const v = 1;
  const sigma = 1 / Math.sqrt(2 * rho);
  const A = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? 1 : 0)));
  const s = [0, 0, 0];
  xs.forEach((x, t) => {
    for (let i = 0; i < d; i++) {
      s[i]! += rewards[t]! * x[i]!;
      for (let j = 0; j < d; j++) A[i]![j]! += x[i]! * x[j]!;
    }
  });
  const Ainv = matInv(A);
  const mu = Ainv.map((row) => row.reduce((acc, a, j) => acc + a * s[j]!, 0));
  const Ainv2 = mul(Ainv, Ainv);
  const sigmaTrue = Ainv.map((row, i) => row.map((a, j) => sigma * sigma * Ainv2[i]![j]! + v * v * a));
  const sigmaNoPrivacy = Ainv.map((row) => row.map((a) => v * v * a));

  const samples: Float64Array[] = [];
  const f = new Float64Array(d);
  for (let m = 0; m < M; m++) {
    const p = createPolicy('adaprivate-ts', {
      dim: d,
      horizon: 12,
      seed: 1000 + m,
      rho,
      v,
      batchSize: 12,
    }) as BatchedRidgePolicy;
    xs.forEach((x, t) => {
      f.set(x);
      p.select(f, 1);
      p.update(rewards[t]!);
    });
    const out = new Float64Array(d);
    p.sampleParameter(out);
    samples.push(out);
  }
  const dirs = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 0],
    [1, 0, 1],
    [0, 1, 1],
    [1, -1, 0],
    [1, 1, 1],
    [1, -2, 1],
  ].map((u) => {
    const n = Math.hypot(...u);
    return u.map((c) => c / n);
  });
  const quad = (S: number[][], u: number[]) =>
    u.reduce((acc, ui, i) => acc + ui * S[i]!.reduce((a2, sij, j) => a2 + sij * u[j]!, 0), 0);
  let maxAltZ = 0;
  for (const u of dirs) {
    let ss = 0;
    let mean = 0;
    for (const th of samples) {
      const e = u.reduce((acc, ui, i) => acc + ui * (th[i]! - mu[i]!), 0);
      ss += e * e;
      mean += e;
    }
    const varHat = ss / M;
    const vTrue = quad(sigmaTrue, u);
    const z = (varHat / vTrue - 1) / Math.sqrt(2 / M);
    assert.ok(Math.abs(z) < Z, `direction ${u}: var ${varHat} vs ${vTrue} (z = ${z})`);
    const zMean = mean / M / Math.sqrt(vTrue / M);
    assert.ok(Math.abs(zMean) < Z, `direction ${u}: mean offset z = ${zMean}`);
    maxAltZ = Math.max(maxAltZ, Math.abs((varHat / quad(sigmaNoPrivacy, u) - 1) / Math.sqrt(2 / M)));
  }
  // power: the covariance without the privacy term is clearly rejected
  assert.ok(maxAltZ > 10, `the test cannot tell v^2 A^{-1} from the true covariance (max z ${maxAltZ})`);
});
