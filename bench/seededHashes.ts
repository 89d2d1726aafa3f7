// Seeded-output fingerprint of every policy, to show that a speed change leaves results unchanged.
// Usage (after `npm run build`): node dist/bench/seededHashes.js [--rounds 1500] [--dims 7,20]
//   [--epsilons 0.5,4] [--out FILE] [--compare FILE]
//
// For every policy id, dimension and epsilon (seeded noise, seed 1, K = 5): a run of `--rounds`
// select + update rounds on a fixed stream; the SHA-256 of its decisions, of `scores` of the next
// candidates every 25 rounds, of `probabilities` (64 draws) every 100 rounds and of the final
// scores. `--out` writes the fingerprints as JSON; `--compare` exits 1 naming every run whose
// fingerprint differs from the file's. A bit-identical change gives identical fingerprints.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createPolicy, type PolicyId, policyIds, policyInfo } from '../src/policies/index.js';
import { createRng } from '../src/random/index.js';
import { benchArgs } from './benchArgs.js';

// --out and --compare unset: neither written nor compared
const args = benchArgs(import.meta.url, {
  compare: '',
  dims: '7,20',
  epsilons: '0.5,4',
  out: '',
  rounds: '1500',
});

const rounds = Number(args.rounds);
const dims = args.dims.split(',').map(Number);
const epsilons = args.epsilons.split(',').map(Number);
const K = 5;

function fingerprint(id: PolicyId, d: number, epsilon: number): string {
  const rng = createRng(1, `fingerprint-${d}`);
  const n = 257;
  const features = new Float64Array(n * K * d);
  for (let i = 0; i < features.length; i++) features[i] = rng.normal() / Math.sqrt(d);
  const rewards = new Float64Array(n * K);
  for (let i = 0; i < rewards.length; i++) rewards[i] = rng.uniform();
  const info = policyInfo(id);
  const options = {
    dim: d,
    horizon: rounds,
    seed: 1,
    ...(info.isPrivate ? { epsilon, noiseSeed: 1 } : {}),
  };
  const policy = createPolicy(id, options as never);
  const hash = createHash('sha256');
  const decisions = new Int32Array(rounds);
  for (let t = 0; t < rounds; t++) {
    const r = t % n;
    const view = features.subarray(r * K * d, (r + 1) * K * d);
    if (t % 25 === 0) hash.update(new Uint8Array(policy.scores(view, K).buffer));
    if (t % 100 === 0) {
      const p = policy.probabilities(view, K, { samples: 64 });
      hash.update(new Uint8Array(p.probabilities.buffer));
    }
    const a = policy.select(view, K);
    decisions[t] = a;
    policy.update(rewards[r * K + a]!);
  }
  hash.update(new Uint8Array(decisions.buffer));
  hash.update(new Uint8Array(policy.scores(features.subarray(0, K * d), K).buffer));
  return hash.digest('hex');
}

const out: Record<string, string> = {};
for (const id of policyIds) {
  for (const d of dims) {
    for (const eps of epsilons) {
      const key = `${id} d=${d} eps=${eps}`;
      out[key] = fingerprint(id, d, eps);
      if (!policyInfo(id).isPrivate) break; // epsilon does not apply
    }
  }
}
const outFile = args.out;
if (outFile !== '') writeFileSync(outFile, `${JSON.stringify(out, null, 2)}\n`);
const compare = args.compare;
if (compare !== '') {
  const ref = JSON.parse(readFileSync(compare, 'utf8')) as Record<string, string>;
  const bad = Object.keys({ ...ref, ...out }).filter((k) => ref[k] !== out[k]);
  for (const k of bad) process.stderr.write(`differs: ${k}\n`);
  process.stderr.write(
    `${Object.keys(out).length - bad.length} of ${Object.keys(out).length} fingerprints identical\n`,
  );
  if (bad.length > 0) process.exit(1);
} else if (outFile === undefined) console.log(JSON.stringify(out, null, 2));
