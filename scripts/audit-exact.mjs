#!/usr/bin/env node
// The full audit check of issue 24 (too slow for the test suite): AdaPrivate-TS at epsilon 1,
// delta 1e-5 under the default (exact) accountant, audited with the production sampler (secure
// noise) at the audit's default of 50000 runs per input, once per audit seed: every lower bound
// must be >= 0.85 x the claim and never above it; the same release with half of its noise removed
// must be refuted (at the same number of runs). Prints the figures of docs/audit.md as JSON.
// Usage: npm run build && node scripts/audit-exact.mjs [samples] [seeds, e.g. 1,2,3]
import { audit, auditMechanism, policyReleaseMechanism, rewardNeighbours } from '../dist/src/audit/index.js';

const samples = Number(process.argv[2] ?? 50000);
const seeds = (process.argv[3] ?? '1,2,3').split(',').map(Number);
const clock = () => {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  return () => {
    const c = process.cpuUsage(c0);
    return { wallSeconds: (performance.now() - t0) / 1000, cpuSeconds: (c.user + c.system) / 1e6 };
  };
};
const audits = [];
for (const seed of seeds) {
  const stop = clock();
  const r = audit({ policy: 'adaprivate-ts', epsilon: 1, samples, seed });
  audits.push({
    seed,
    noise: r.noise,
    claim: r.claim.epsilon,
    lowerBound: r.lowerBound,
    ratio: r.lowerBound / r.claim.epsilon,
    muLowerBound: r.gdp.mu,
    method: r.method,
    thresholdLowerBound: r.threshold.epsilon,
    refuted: r.refuted,
    ...stop(),
  });
}
const stop = clock();
const real = policyReleaseMechanism('adaprivate-ts', {
  policyOptions: { epsilon: 1, batchSize: 4, horizon: 4 },
});
const half = {
  name: 'adaprivate-ts with half the noise',
  claim: () => real.claim(),
  run: (data, index) => {
    const out = real.run(data, index);
    const exact = data.reduce((s, x) => s + x, 0) / (1 + data.length);
    return out.map((v) => exact + 0.5 * (v - exact));
  },
};
const m = auditMechanism(half, rewardNeighbours(4, 0, 0.5), { samples });
const result = {
  samples,
  audits,
  minRatio: Math.min(...audits.map((a) => a.ratio)),
  halfNoise: { lowerBound: m.lowerBound, muLowerBound: m.gdp.mu, refuted: m.refuted, ...stop() },
};
console.log(JSON.stringify(result, null, 2));
const ok =
  audits.every((a) => a.noise === 'secure' && a.lowerBound <= a.claim && a.ratio >= 0.85) && m.refuted;
process.exit(ok ? 0 : 1);
