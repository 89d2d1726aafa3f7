import { calibrateGaussianNoise } from './src/privacy/index.js';
for (const [e, q, m] of [[1, 0.3, 10], [1, 0.1, 100], [2, 0.01, 1000]] as const) {
  const t = performance.now();
  const c = calibrateGaussianNoise({ epsilon: e, delta: 1e-5 }, { sensitivity: 1, compositions: m, q }, 'exact');
  const r = calibrateGaussianNoise({ epsilon: e, delta: 1e-5 }, { sensitivity: 1, compositions: m, q }, 'rdp');
  console.log(e, q, m, c.sigma, c.epsilon, c.epsilonLower, 'rdp', r.sigma, performance.now() - t);
}
