/**
 * The Gaussian-DP tester. A mu-GDP mechanism admits no test whose error rates (alpha, beta) lie below
 * the Gaussian trade-off curve beta >= Phi(Phi^{-1}(1 - alpha) - mu) (Dong, Roth & Su 2022); along
 * that curve alpha + beta is smallest at alpha = beta = Phi(-mu / 2), so every test has
 *   (alpha + beta) / 2 >= Phi(-mu / 2),   i.e.   mu >= -2 Phi^{-1}((alpha + beta) / 2).
 * The bound uses one confidence statement on the mean error p = (alpha + beta) / 2: the errors of a
 * fixed test on n runs of input a and n runs of input b add up to S = Bin(n, alpha) + Bin(n, beta), a
 * sum of 2n independent Bernoulli variables with mean 2n p, and the Clopper-Pearson upper bound of
 * S out of 2n is a valid upper bound on p (Hoeffding 1956, Theorem 4: such a sum is less spread than
 * Bin(2n, p), P(S <= c) <= P(Bin(2n, p) <= c) for every c <= 2n p - 1, and every cut-off a one-sided
 * bound at level gamma <= 1/4 uses lies there; docs/audit.md). Compared with separate bounds on alpha
 * and beta (each at gamma / 2) the margin is about 40% smaller.
 * The reported epsilon is that of mu-GDP at delta. It bounds the mu of any mechanism whose privacy
 * is claimed as Gaussian (every release a Gaussian mechanism, so the ledger's rho means
 * sqrt(2 rho)-GDP); for other mechanisms (subsampled releases) use the threshold tester.
 * The test (projection, threshold, region) is chosen on a separate selection part (10% of the runs:
 * it only has to find the middle of the two output distributions), and bounded on the other 90%.
 */
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { clopperPearsonUpper } from './clopperPearson.js';
import { gdpEpsilon } from './gdpEpsilon.js';
import type { PropertyTester, TesterResult } from './PropertyTester.js';
import { selectAndEvaluate, type ThresholdCounts, testerResult } from './thresholdTests.js';

/**
 * Thresholds are chosen between the 40% and 60% quantiles of the pooled scores: the best test of a
 * mean shift is in the middle, while the noisy tails would win the selection by luck.
 */
const CENTRAL_TAIL = 0.4;

/** Share of the runs that selects the test (the rest bound it). */
export const GDP_SELECTION_FRACTION = 0.1;

/** Largest gamma = 1 - confidence for which the pooled bound is used (Hoeffding's condition). */
const POOLED_MAX_GAMMA = 0.25;

/**
 * Lower bound on mu from one test (region R rejects input a: alpha = P_a(R), beta = P_b(not R)),
 * holding with probability >= 1 - gamma.
 */
export function gdpMuBound(c: ThresholdCounts, gamma: number): number {
  const errors = c.countA + (c.n - c.countB);
  if (gamma <= POOLED_MAX_GAMMA) {
    const p = clopperPearsonUpper(errors, 2 * c.n, gamma);
    return p >= 0.5 ? 0 : -2 * normalQuantile(p, 0, 1);
  }
  // a low confidence: separate bounds on alpha and beta, each at gamma / 2
  const alpha = clopperPearsonUpper(c.countA, c.n, gamma / 2);
  const beta = clopperPearsonUpper(c.n - c.countB, c.n, gamma / 2);
  if (alpha >= 1 || beta >= 1) return 0;
  return Math.max(0, normalQuantile(1 - alpha, 0, 1) + normalQuantile(1 - beta, 0, 1));
}

export const gdpTester: PropertyTester = {
  method: 'gdp',
  lowerBound(a, b, delta, confidence): TesterResult {
    const gamma = 1 - confidence;
    const { evaluation: e, selection: s } = selectAndEvaluate(
      a,
      b,
      (c) => gdpMuBound(c, gamma),
      CENTRAL_TAIL,
      GDP_SELECTION_FRACTION,
    );
    const mu = gdpMuBound(e, gamma);
    return testerResult('gdp', { epsilon: gdpEpsilon(mu, delta, 'lower'), mu }, e, s, delta, confidence);
  },
};
