/**
 * A property tester turns samples of a mechanism on two neighbouring inputs into a lower bound on
 * the epsilon the mechanism provides at a given delta, holding with a stated confidence.
 */

/** What a tester concludes from two sample sets. */
export interface TesterResult {
  /** 'threshold' (assumption-free) or 'gdp' (lower bound on the Gaussian-DP mu, then its epsilon). */
  readonly method: 'threshold' | 'gdp';
  /** Lower bound on epsilon at `delta`: it holds with probability >= `confidence`. */
  readonly epsilon: number;
  /** 'gdp': the lower bound on mu (also at `confidence`); 'threshold': null. */
  readonly mu: number | null;
  readonly delta: number;
  readonly confidence: number;
  /** The test chosen on the selection half: reject when the projected sample is above/below `threshold`. */
  readonly threshold: number;
  readonly region: 'above' | 'below';
  /** Samples per input used for selection and for the bound (the two halves). */
  readonly selectionSamples: number;
  readonly evaluationSamples: number;
  /** Counts in the rejection region on the evaluation half, for input a and input b. */
  readonly countA: number;
  readonly countB: number;
}

export interface PropertyTester {
  readonly method: 'threshold' | 'gdp';
  /** `a[i]`, `b[i]`: independent output samples of the mechanism on the two inputs. */
  lowerBound(
    a: readonly Float64Array[],
    b: readonly Float64Array[],
    delta: number,
    confidence: number,
  ): TesterResult;
}
