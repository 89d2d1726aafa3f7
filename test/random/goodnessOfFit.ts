// Small statistics helpers for the sampler tests (not a test file itself).

/**
 * Standard normal CDF via erfc with the rational approximation of Numerical Recipes' erfcc
 * (fractional error < 1.2e-7), far below the KS thresholds used here (~7e-3).
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - 0.5 * erfc : 0.5 * erfc;
}

/** One-sample Kolmogorov-Smirnov statistic D_n of the sample against a continuous CDF. */
export function ksStatistic(sample: Float64Array, cdf: (x: number) => number): number {
  const s = Float64Array.from(sample).sort();
  const n = s.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(s[i]!);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  }
  return d;
}

/**
 * sqrt(n) * D_n above this rejects at alpha = 1e-4 (asymptotic Kolmogorov quantile
 * sqrt(-ln(alpha/2)/2) = 2.2253; scipy.stats.kstwo.isf(1e-4, 1e5) * sqrt(1e5) = 2.2247).
 */
export const KS_SQRT_N_CRIT_1E4 = 2.2253;

/** Pearson's chi-square statistic sum (O - E)^2 / E. */
export function chiSquare(observed: ArrayLike<number>, expected: ArrayLike<number>): number {
  let c = 0;
  for (let i = 0; i < observed.length; i++) {
    const e = expected[i]!;
    c += (observed[i]! - e) ** 2 / e;
  }
  return c;
}

/** Upper 1e-4 quantiles of chi-square, from scipy.stats.chi2.isf(1e-4, df). */
export const CHI2_CRIT_1E4: Readonly<Record<number, number>> = {
  1: 15.136705226623397,
  6: 27.856341236013918,
  9: 33.719948438964636,
  19: 50.795489665621886,
  119: 185.0859830472165,
};

/** Pearson correlation of two equal-length samples. */
export function correlation(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const a = x[i]! - mx;
    const b = y[i]! - my;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  }
  return sxy / Math.sqrt(sxx * syy);
}
