import { privacyTable } from '../../src/cli/commands/privacy.js';
import { calibrateSigma, epsilonToRho, sigmaForRho } from '../../src/privacy/index.js';

for (const conversion of ['classic', 'improved'] as const) {
  const cells = privacyTable({ delta: 1e-5, steps: 1, orders: 'extended', conversion });
  console.log(
    conversion,
    JSON.stringify(cells.map((c) => [c.epsilon, c.q, c.sigma, c.order, c.orderAtEdge])),
  );
}
const cellsP = privacyTable({ delta: 1e-5, steps: 1, orders: 'paper', conversion: 'classic' });
console.log('paper', JSON.stringify(cellsP.map((c) => [c.epsilon, c.q, c.sigma, c.order, c.orderAtEdge])));
for (const eps of [0.1, 0.5, 1, 2, 5, 10]) {
  const a = epsilonToRho(eps, 1e-5, 'classic'),
    b = epsilonToRho(eps, 1e-5, 'improved');
  console.log('zcdp', eps, a, b, sigmaForRho(a), sigmaForRho(b), 1 - sigmaForRho(b) / sigmaForRho(a));
}
