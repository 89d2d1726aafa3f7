/**
 * The privacy cost of drawing Gaussian noise from the exact discrete Gaussian on a fine grid instead
 * of the continuous Gaussian, as a proven additive bound on delta (docs/privacy.md, "The noise actually
 * drawn"). The project's discrete release (`discreteGaussianRelease`) rounds the statistic to a grid of
 * step gamma <= 2^-20 Delta / sqrt(n) and adds N_Z(0, sigmaZ^2)^n with sigmaZ = sigma Delta' / (Delta
 * gamma) >= 2^20 sqrt(n) sigma / Delta. Coupling it with the post-processed continuous mechanism
 * gamma round(u + N(0, sigmaZ^2 I)) (whose curve is the continuous Gaussian's, mu = Delta / sigma),
 * the two outputs differ in total variation by at most n tv(sigmaZ) with
 *   tv(s) = TV(N_Z(0, s^2), round(N(0, s^2))) <= 1 / (8 s^2) for s >= 2
 * (Taylor's theorem on each unit cell plus Poisson summation for the normaliser; the constant is checked
 * against mpmath in test/fixtures/privacy/exact_reference.py). Hence each release adds at most
 *   eta = n tv(sigmaZ) <= (Delta / sigma)^2 / (8 2^40) = mu^2 2^-43
 * to both output distributions, and an (eps, delta)-curve of the continuous mechanism becomes
 * delta(eps) + (1 + e^eps) sum_i eta_i for the discrete one (hockey-stick divergence is 1-Lipschitz in
 * each argument in total variation, scaled by e^eps in the second; adaptive composition by the hybrid
 * argument adds the per-release bounds).
 */

/** The smallest number of grid bits the discrete release guarantees (gamma <= 2^-bits Delta / sqrt(n)). */
export const DISCRETE_GRID_BITS = 20;

/** eta per unit of mu^2: 1 / (8 * 2^(2 DISCRETE_GRID_BITS)). */
export const DISCRETE_ETA_PER_MU2 = 1 / (8 * 2 ** (2 * DISCRETE_GRID_BITS));

/**
 * The additive delta margin of the discrete Gaussian over the continuous curve, for Gaussian releases
 * whose squared mu (Delta_i / sigma_i)^2 sum to `muSquared`, at `epsilon`: (1 + e^eps) mu^2 2^-43.
 * @example discreteGaussianDeltaMargin(1, 0.072) // ~3.1e-14
 */
export function discreteGaussianDeltaMargin(epsilon: number, muSquared: number): number {
  return (1 + Math.exp(epsilon)) * muSquared * DISCRETE_ETA_PER_MU2;
}
