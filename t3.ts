import { subsampledCompositionPld } from './src/privacy/subsampledCompositionPld.js';
const t = performance.now();
const p = subsampledCompositionPld([{ q: 0.3, noiseMultiplier: 4, count: 10 }], 0);
console.log(p.points, p.discretisation, performance.now() - t);
const t2 = performance.now();
console.log(p.epsilon(1e-5), performance.now() - t2);
