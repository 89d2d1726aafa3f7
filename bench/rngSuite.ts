import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { discreteGaussianRelease } from '../src/mechanisms/discreteGaussianRelease.js';
import { createRng, SecureRng } from '../src/random/index.js';
import type { BenchCase, BenchSuite } from './registry.js';

const BATCH = 10000;

/** Marsaglia polar over an arbitrary uniform source (the same method as ours, for a fair comparison). */
function polarPair(u01: () => number, out: Float64Array, i: number): void {
  let u: number;
  let v: number;
  let q: number;
  do {
    u = 2 * u01() - 1;
    v = 2 * u01() - 1;
    q = u * u + v * v;
  } while (q >= 1 || q === 0);
  const f = Math.sqrt((-2 * Math.log(q)) / q);
  out[i] = u * f;
  out[i + 1] = v * f;
}

function finiteCheck(label: string, get: () => number): () => void {
  return () => {
    const v = get();
    if (!Number.isFinite(v) || v === 0)
      throw new Error(`${label}: checksum ${v} is not a finite non-zero number`);
  };
}

function cases(): BenchCase[] {
  const out: BenchCase[] = [];
  // uniform
  {
    const r = createRng(1, 'bench');
    let acc = 0;
    out.push({
      name: 'uniform ours (xoshiro256**)',
      group: 'uniform',
      opsPerCall: BATCH,
      fn: () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += r.uniform();
        acc += s;
      },
      check: finiteCheck('uniform ours', () => acc),
    });
  }
  {
    const g = xoroshiro128plus(1);
    let acc = 0;
    out.push({
      name: 'uniform pure-rand (xoroshiro128+, uniformFloat64)',
      group: 'uniform',
      opsPerCall: BATCH,
      fn: () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += uniformFloat64(g);
        acc += s;
      },
      check: finiteCheck('uniform pure-rand', () => acc),
    });
  }
  {
    let acc = 0;
    out.push({
      name: 'uniform Math.random (unseeded baseline)',
      group: 'uniform',
      opsPerCall: BATCH,
      fn: () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.random();
        acc += s;
      },
      check: finiteCheck('uniform Math.random', () => acc),
    });
  }
  // normal
  {
    const r = createRng(2, 'bench');
    let acc = 0;
    out.push({
      name: 'normal ours (polar)',
      group: 'normal',
      opsPerCall: BATCH,
      fn: () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += r.normal();
        acc += s;
      },
      check: finiteCheck('normal ours', () => acc),
    });
  }
  {
    const g = xoroshiro128plus(2);
    const u01 = (): number => uniformFloat64(g);
    const buf = new Float64Array(2);
    let acc = 0;
    out.push({
      name: 'normal pure-rand uniforms + polar',
      group: 'normal',
      opsPerCall: BATCH,
      fn: () => {
        let s = 0;
        for (let i = 0; i < BATCH; i += 2) {
          polarPair(u01, buf, 0);
          s += buf[0]! + buf[1]!;
        }
        acc += s;
      },
      check: finiteCheck('normal pure-rand', () => acc),
    });
  }
  // fillNormal of 1e6
  {
    const r = createRng(3, 'bench');
    const buf = new Float64Array(1_000_000);
    out.push({
      name: 'fillNormal 1e6 ours (ns per normal)',
      group: 'fillNormal 1e6',
      opsPerCall: 1_000_000,
      fn: () => r.fillNormal(buf),
      check: () => {
        let s = 0;
        let s2 = 0;
        for (const v of buf) {
          s += v;
          s2 += v * v;
        }
        const n = buf.length;
        if (Math.abs(s / n) > 0.01 || Math.abs(s2 / n - 1) > 0.01) {
          throw new Error(`fillNormal: mean ${s / n}, variance ${s2 / n}`);
        }
      },
    });
  }
  {
    const r = createRng(4, 'bench');
    const buf = new Float64Array(10_000);
    out.push({
      name: 'fillNormal 1e4 ours (ns per normal)',
      group: 'fillNormal',
      opsPerCall: 10_000,
      fn: () => r.fillNormal(buf),
      check: finiteCheck('fillNormal 1e4', () => buf[9999]!),
    });
  }
  {
    const g = xoroshiro128plus(3);
    const u01 = (): number => uniformFloat64(g);
    const buf = new Float64Array(1_000_000);
    out.push({
      name: 'fillNormal 1e6 pure-rand + polar (ns per normal)',
      group: 'fillNormal 1e6',
      opsPerCall: 1_000_000,
      fn: () => {
        for (let i = 0; i < buf.length; i += 2) polarPair(u01, buf, i);
      },
      check: finiteCheck('fillNormal pure-rand', () => buf[12345]!),
    });
  }
  // The Gaussian release of a d = 20 batch sum at eps = 1 (sigma = 4.9006, sensitivity 1): what a
  // policy pays per release, seeded (research mode) against secure (default).
  {
    const sigma = 4.900555168628417;
    const d = 20;
    const reps = 50;
    const seeded = createRng(5, 'bench');
    const noise = new Float64Array(d);
    const v = new Float64Array(d);
    out.push({
      name: 'release d=20 seeded polar (ns per coordinate)',
      group: 'gaussian release',
      opsPerCall: d * reps,
      fn: () => {
        for (let r = 0; r < reps; r++) {
          seeded.fillNormal(noise);
          for (let i = 0; i < d; i++) v[i] = 0.5 + sigma * noise[i]!;
        }
      },
      check: finiteCheck('seeded release', () => v[7]!),
    });
    const secure = new SecureRng();
    const w = new Float64Array(d);
    out.push({
      name: 'release d=20 secure polar (ns per coordinate)',
      group: 'gaussian release',
      opsPerCall: d * reps,
      fn: () => {
        for (let r = 0; r < reps; r++) {
          secure.fillNormal(noise);
          for (let i = 0; i < d; i++) w[i] = 0.5 + sigma * noise[i]!;
        }
      },
      check: finiteCheck('secure polar release', () => w[7]!),
    });
    const x = new Float64Array(d);
    out.push({
      name: 'release d=20 secure discrete Gaussian (ns per coordinate)',
      group: 'gaussian release',
      opsPerCall: d * reps,
      fn: () => {
        for (let r = 0; r < reps; r++) {
          x.fill(0.5);
          discreteGaussianRelease(x, 0, d, 1, sigma, secure);
        }
      },
      check: finiteCheck('discrete release', () => x[7]!),
    });
  }
  return out;
}

export const rngSuite: BenchSuite = {
  name: 'rng',
  description: 'seeded generators: ns per uniform, per normal, per normal in a 1e6 fillNormal',
  cases,
};
