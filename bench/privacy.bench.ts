// Privacy accountant benchmarks: one calibration of sigma on the extended order grid (target < 50 ms),
// and one RDP curve evaluation. Registered in bench/suites.ts as suite `privacy`; also runnable alone
// (after `npm run build`): node dist/bench/privacy.bench.js  -> prints ms per calibration.
import { realpathSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { calibrateSigma, EXTENDED_ORDERS, subsampledGaussianRdpCurve } from '../src/privacy/index.js';
import type { BenchCase, BenchSuite } from './registry.js';

function cases(): BenchCase[] {
  const out: BenchCase[] = [];
  for (const [eps, q] of [
    [1, 0.3],
    [5, 1],
    [0.1, 0.1],
  ] as const) {
    let sigma = 0;
    out.push({
      name: `calibrateSigma extended grid eps=${eps} q=${q} delta=1e-5`,
      group: 'calibrate',
      opsPerCall: 1,
      fn: () => {
        sigma = calibrateSigma(eps, { q, delta: 1e-5 }).sigma;
      },
      check: () => {
        if (!(sigma > 0 && Number.isFinite(sigma)))
          throw new Error(`calibrated sigma ${sigma} is not positive`);
      },
    });
  }
  const curve = new Float64Array(EXTENDED_ORDERS.length);
  out.push({
    name: `RDP curve, extended grid (${EXTENDED_ORDERS.length} orders), q=0.3 sigma=2.5`,
    group: 'curve',
    opsPerCall: 1,
    fn: () => {
      subsampledGaussianRdpCurve(0.3, 2.5, EXTENDED_ORDERS, 1, curve);
    },
    check: () => {
      if (!curve.every((v) => Number.isFinite(v) && v > 0))
        throw new Error('RDP curve has a non-finite value');
    },
  });
  return out;
}

/** The `privacy` benchmark suite. */
export const privacySuite: BenchSuite = {
  name: 'privacy',
  description: 'RDP accountant: calibration of sigma on the extended grid (target < 50 ms) and one RDP curve',
  cases,
};

function invokedDirectly(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  for (const c of cases()) {
    c.fn(); // warm-up
    const reps = 20;
    const times: number[] = [];
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      c.fn();
      times.push(performance.now() - t0);
    }
    c.check?.();
    times.sort((a, b) => a - b);
    const median = times[reps >> 1]!;
    process.stdout.write(
      `${c.name}: median ${median.toFixed(2)} ms, best ${times[0]!.toFixed(2)} ms (${reps} runs)\n`,
    );
  }
}
