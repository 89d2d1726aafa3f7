/**
 * The assumption-free tester: for a rejection region R and neighbouring inputs a, b, an
 * (eps, delta)-DP mechanism satisfies P_b(R) <= e^eps P_a(R) + delta (and the same with a and b
 * exchanged), so eps >= ln((P_b(R) - delta) / P_a(R)). With a Clopper-Pearson lower bound on the
 * larger probability and an upper bound on the smaller one (each at (1 - confidence) / 2), the
 * bound holds with probability >= confidence. The test (projection, threshold, region, which input
 * is in the numerator) is chosen on a separate selection half.
 */
import { clopperPearsonLower, clopperPearsonUpper } from './clopperPearson.js';
import type { PropertyTester, TesterResult } from './PropertyTester.js';
import { selectAndEvaluate, type ThresholdCounts, testerResult } from './thresholdTests.js';

function bound(c: ThresholdCounts, delta: number, gamma: number): number {
  const one = (hi: number, lo: number) => {
    const p = clopperPearsonLower(hi, c.n, gamma) - delta;
    const q = clopperPearsonUpper(lo, c.n, gamma);
    return p > 0 ? Math.log(p / q) : Number.NEGATIVE_INFINITY;
  };
  return Math.max(one(c.countB, c.countA), one(c.countA, c.countB));
}

export const thresholdTester: PropertyTester = {
  method: 'threshold',
  lowerBound(a, b, delta, confidence): TesterResult {
    const gamma = (1 - confidence) / 2;
    const { evaluation: e, selection: s } = selectAndEvaluate(a, b, (c) => bound(c, delta, gamma));
    return testerResult(
      'threshold',
      { epsilon: Math.max(0, bound(e, delta, gamma)), mu: null },
      e,
      s,
      delta,
      confidence,
    );
  },
};
