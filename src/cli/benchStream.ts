/**
 * The pre-generated stream of `adaprivate bench` (SPEC section 5): unit-norm Gaussian features and
 * Bernoulli rewards of a logistic model, shared by the CLI bench and bench/nativeRound.bench.ts.
 */
import { createRng } from '../random/index.js';

/**
 * `rounds` rounds of `arms` candidates of dimension `dim`, from the generator `createRng(seed, 'env')`:
 * theta is a Gaussian vector scaled to norm 2, each feature vector a Gaussian vector scaled to norm 1,
 * each reward Bernoulli(sigmoid(x . theta)). Row r (candidate r % arms of round floor(r / arms)) is
 * `features[r * dim .. (r + 1) * dim)`, its reward `rewards[r]`. No validation: callers pass positive
 * integers.
 *
 * @example
 * benchStream(1, 5, 5, 1024).rewards.length; // 5120
 */
export function benchStream(
  seed: number,
  dim: number,
  arms: number,
  rounds: number,
): { features: Float64Array; rewards: Float64Array } {
  const d = dim;
  const rng = createRng(seed, 'env');
  const theta = new Float64Array(d);
  let tn = 0;
  for (let i = 0; i < d; i++) {
    theta[i] = rng.normal();
    tn += theta[i]! ** 2;
  }
  for (let i = 0; i < d; i++) theta[i] = (2 * theta[i]!) / Math.sqrt(tn);
  const features = new Float64Array(rounds * arms * d);
  const rewards = new Float64Array(rounds * arms);
  for (let r = 0; r < rounds * arms; r++) {
    let s = 0;
    for (let i = 0; i < d; i++) {
      const v = rng.normal();
      features[r * d + i] = v;
      s += v * v;
    }
    s = Math.sqrt(s);
    let m = 0;
    for (let i = 0; i < d; i++) {
      features[r * d + i] = features[r * d + i]! / s;
      m += features[r * d + i]! * theta[i]!;
    }
    rewards[r] = rng.bernoulli(1 / (1 + Math.exp(-m))) ? 1 : 0;
  }
  return { features, rewards };
}
