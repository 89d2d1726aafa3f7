#!/usr/bin/env node
// The full audit check of issue 24 (too slow for the test suite): AdaPrivate-TS at epsilon 1,
// delta 1e-5 under the default (exact) accountant, audited with the production sampler (secure
// noise, 20000 runs per input): the lower bound must be >= 0.85 x the claim and never above it; the
// same release with half of its noise removed must be refuted. Prints the figures (docs/audit.md).
// Usage: npm run build && node scripts/audit-exact.mjs [samples]
import { audit, auditMechanism, policyReleaseMechanism, rewardNeighbours } from '../dist/src/audit/index.js';

const samples = Number(process.argv[2] ?? 20000);
const t0 = performance.now();
const c0 = process.cpuUsage();
const r = audit({ policy: 'adaprivate-ts', epsilon: 1, samples });
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
const cpu = process.cpuUsage(c0);
const result = {
  samples,
  noise: r.noise,
  claim: r.claim.epsilon,
  lowerBound: r.lowerBound,
  ratio: r.lowerBound / r.claim.epsilon,
  method: r.method,
  refuted: r.refuted,
  halfNoiseLowerBound: m.lowerBound,
  halfNoiseRefuted: m.refuted,
  wallSeconds: (performance.now() - t0) / 1000,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
};
console.log(JSON.stringify(result, null, 2));
const ok = r.noise === 'secure' && r.lowerBound <= r.claim.epsilon && result.ratio >= 0.85 && m.refuted;
process.exit(ok ? 0 : 1);
