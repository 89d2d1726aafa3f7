// Statistics of released noise for the mechanism tests (not a test file itself).
//
// Every check is a z-score compared with Z_LIMIT = 5: a two-sided false-alarm rate of 5.7e-7 per
// check under the null hypothesis (noise N(0, sigma^2 I) with the ledger's sigma, independent
// across releases). mechanisms.test.ts makes fewer than 200 such checks, so the whole file raises
// a false alarm with probability below 1.2e-4; its seeds are fixed, so it is deterministic anyway.

/** |z| above this fails a check (two-sided p = 5.7e-7). */
export const Z_LIMIT = 5;

/**
 * Wilson-Hilferty z-score of a chi-square statistic with `df` degrees of freedom: approximately
 * N(0, 1) when x ~ chi2(df) (absolute error of the tail probability below 1e-3 of it for df >= 30).
 * Noise at half the claimed sigma gives x ~ df / 4: z = -6.2 for df = 64.
 *
 * @example
 * chiSquareZ(64, 64); // returns ~0.06
 */
export function chiSquareZ(x: number, df: number): number {
  const m = 1 - 2 / (9 * df);
  return (Math.cbrt(x / df) - m) / Math.sqrt(2 / (9 * df));
}

/** Standardised noise of one release: noise / sigma (the ledger's sigma), one value per coordinate. */
export interface StandardisedRelease {
  readonly label: string;
  readonly round: number;
  readonly z: Float64Array;
}

/** The z-scores of the pooled tests over `releases`: scale (chi-square), mean, lag-1 correlation. */
export function pooledScores(releases: readonly StandardisedRelease[]): {
  readonly n: number;
  readonly scale: number;
  readonly mean: number;
  readonly lag1: number;
  readonly worstVector: number;
} {
  let n = 0;
  let ss = 0;
  let sum = 0;
  let cross = 0;
  let crossN = 0;
  let worst = 0;
  for (let k = 0; k < releases.length; k++) {
    const z = releases[k]!.z;
    let vs = 0;
    for (let i = 0; i < z.length; i++) {
      n++;
      ss += z[i]! * z[i]!;
      vs += z[i]! * z[i]!;
      sum += z[i]!;
    }
    const vz = chiSquareZ(vs, z.length);
    if (Math.abs(vz) > Math.abs(worst)) worst = vz;
    if (k > 0) {
      const prev = releases[k - 1]!.z;
      for (let i = 0; i < z.length; i++) {
        cross += z[i]! * prev[i]!;
        crossN++;
      }
    }
  }
  return {
    n,
    scale: chiSquareZ(ss, n),
    mean: sum / Math.sqrt(n),
    lag1: crossN > 0 ? cross / Math.sqrt(crossN) : 0,
    worstVector: worst,
  };
}
