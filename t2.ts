import { subsampledCompositionPld } from './src/privacy/subsampledCompositionPld.js';
import { gaussianEpsilon } from './src/privacy/gaussianDp.js';
import { subsampledGaussianExactEpsilon } from './src/privacy/subsampledGaussianExact.js';
let t = performance.now();
// q=1-like: gaussian part only
const g = subsampledCompositionPld([], 1 / 3.73 ** 2);
console.log('gauss only', g.epsilon(1e-5), gaussianEpsilon(1e-5, 1 / 3.73), g.points, performance.now() - t);
t = performance.now();
const s1 = subsampledCompositionPld([{ q: 0.3, noiseMultiplier: 1.94, count: 1 }], 0);
console.log('single sub', s1.epsilon(1e-5), subsampledGaussianExactEpsilon(1e-5, 0.3, 1.94), s1.points, performance.now() - t);
for (const [q, s, m] of [[0.3, 4, 10], [0.1, 2, 100], [0.01, 1, 1000], [0.999999, 10, 100]] as const) {
  t = performance.now();
  const p = subsampledCompositionPld([{ q, noiseMultiplier: s, count: m }], 0);
  console.log(q, s, m, p.epsilon(1e-5), p.points, p.discretisation, performance.now() - t, q > 0.99 ? gaussianEpsilon(1e-5, Math.sqrt(m) / s) : '');
}
