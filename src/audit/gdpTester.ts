/**
 * The Gaussian-DP tester: a mu-GDP mechanism admits no test with false-positive rate alpha and
 * false-negative rate beta below the Gaussian trade-off curve, beta >= Phi(Phi^{-1}(1 - alpha) - mu),
 * so mu >= Phi^{-1}(1 - alpha) + Phi^{-1}(1 - beta). With Clopper-Pearson upper bounds on alpha
 * and beta (each at (1 - confidence) / 2) this is a lower bound on mu holding with probability
 * >= confidence; the reported epsilon is that of mu-GDP at delta. It bounds the mu of any
 * mechanism whose privacy is claimed as Gaussian (every release a Gaussian mechanism, so the
 * ledger's rho means sqrt(2 rho)-GDP); for other mechanisms (subsampled releases) use the
 * threshold tester. The test is chosen on a separate selection half.
 */
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { clopperPearsonUpper } from './clopperPearson.js';
import { gdpEpsilon } from './gdpEpsilon.js';
import type { PropertyTester, TesterResult } from './PropertyTester.js';
import { selectAndEvaluate, type ThresholdCounts, testerResult } from './thresholdTests.js';

/**
 * Thresholds are chosen between the 10% and 90% quantiles of the pooled scores: for a mean shift
 * the estimate of mu is unbiased at any threshold and least noisy near the middle, while the
 * noisy tails would win the selection by luck and lose on the evaluation half.
 */
const CENTRAL_TAIL = 0.1;

/** Lower bound on mu from one test: region R rejects input a; alpha = P_a(R), beta = P_b(not R). */
function muBound(c: ThresholdCounts, gamma: number): number {
  const alpha = clopperPearsonUpper(c.countA, c.n, gamma);
  const beta = clopperPearsonUpper(c.n - c.countB, c.n, gamma);
  if (alpha >= 1 || beta >= 1) return 0;
  return normalQuantile(1 - alpha, 0, 1) + normalQuantile(1 - beta, 0, 1);
}

export const gdpTester: PropertyTester = {
  method: 'gdp',
  lowerBound(a, b, delta, confidence): TesterResult {
    const gamma = (1 - confidence) / 2;
    const { evaluation: e, selection: s } = selectAndEvaluate(a, b, (c) => muBound(c, gamma), CENTRAL_TAIL);
    const mu = Math.max(0, muBound(e, gamma));
    return testerResult('gdp', { epsilon: gdpEpsilon(mu, delta), mu }, e, s, delta, confidence);
  },
};
