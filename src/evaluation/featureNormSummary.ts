/**
 * How the candidate feature vectors of a log sit against the unit ball the private policies need
 * (||x|| <= 1): vectors clearly above 1 are rescaled by the policies (their evaluation is then of
 * the policy on rescaled features), while vectors at 1 up to single-precision rounding (features
 * normalised in float32, norm 1 + ~1e-7) are unit vectors: the policies rescale them too, by less
 * than a float32 rounding step, which changes nothing worth a warning.
 */
import type { DecisionLog } from './DecisionLog.js';

/** Relative excess of the norm over 1 that counts as rounding (float32 epsilon 1.19e-7, times a few d). */
export const UNIT_NORM_ROUNDING = 1e-5;

export interface FeatureNormSummary {
  /** Candidate vectors in the log. */
  readonly vectors: number;
  /** Vectors with norm above 1 + UNIT_NORM_ROUNDING. */
  readonly aboveOne: number;
  /** Vectors with norm in (1, 1 + UNIT_NORM_ROUNDING]: unit norm up to rounding. */
  readonly roundingAboveOne: number;
  /** The largest norm. */
  readonly largest: number;
}

/**
 * @example
 * featureNormSummary(log); // returns { vectors: 3000, aboveOne: 0, roundingAboveOne: 12, largest: 1.00000006 }
 */
export function featureNormSummary(log: DecisionLog): FeatureNormSummary {
  const d = log.dim;
  const total = log.armOffsets[log.rounds]!;
  let above = 0;
  let rounding = 0;
  let largest = 0;
  for (let j = 0; j < total; j++) {
    let s = 0;
    for (let i = 0; i < d; i++) s += log.features[j * d + i]! ** 2;
    const norm = Math.sqrt(s);
    if (norm > largest) largest = norm;
    if (norm > 1 + UNIT_NORM_ROUNDING) above++;
    else if (norm > 1) rounding++;
  }
  return { vectors: total, aboveOne: above, roundingAboveOne: rounding, largest };
}
