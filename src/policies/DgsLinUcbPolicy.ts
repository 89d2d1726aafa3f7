/**
 * DGS-LinUCB (Wang et al. 2022; SPEC section 4): LinUCB whose ridge estimate is perturbed at every
 * step with noise scaled to a dynamic global sensitivity.
 *
 * Each round with new data releases theta~_t = theta_hat_t + N(0, sigma_t^2 I), theta_hat_t =
 * A_t^{-1}(lambda theta_0 + sum r x), sensitivity Delta_t = ||A_t^{-1}||_2 and sigma_t = Delta_t /
 * sqrt(2 rho / T) (accountant 'zcdp'; or the noise of T compositions under the policy's
 * accountant): T releases on the same data compose sequentially to rho-zCDP. The action is
 * argmax x^T theta~_t + alpha ||x||_{A_t^{-1}}.
 *
 * Our reading (docs/policies.md): Delta_t is recomputed by inverse iteration only at geometrically
 * spaced rounds (t >= 1.1 t_last) and reused in between. Since A_t only grows, ||A_t^{-1}||_2 is
 * non-increasing, so the cached value is a valid upper bound (noise at most ~10% above the exact
 * dynamic value) and the per-round cost stays O(d^2). A `select` without a following `update`
 * releases nothing new (the same theta~ is reused: post-processing), and at most T releases are
 * made, so the budget holds in replay evaluation too.
 *
 * Cost per round: rank-one update (2 d^2), ridge solve (d^2), K forward solves (K d^2 / 2);
 * at the ~log(T)/log(1.1) refresh rounds, O(d^2) per inverse-iteration step (at most 100) and
 * d^3 / 6 for the certificate of the bound (from round d on; it checks the running sum A,
 * kept at d^2 / 2 per round).
 */
import type { GaussianMechanism, LedgerLike, NoiseCalibration } from '../mechanisms/index.js';
import type { PrivacySpent } from '../privacy/ledger.js';
import { argmaxFirst } from './argmaxFirst.js';
import { BasePolicy } from './BasePolicy.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import type { PolicyId } from './Policy.js';
import type { PolicyConfigFor } from './PolicyOptions.js';
import { RidgeFactor } from './RidgeFactor.js';

/** Growth factor between two sensitivity refreshes. */
const REFRESH_GROWTH = 1.1;

export class DgsLinUcbPolicy extends BasePolicy {
  private readonly lambda: number;
  private readonly alpha: number;
  /** The per-step release (T compositions under the policy's accountant). */
  private readonly mechanism: GaussianMechanism;
  private readonly factor: RidgeFactor;
  private readonly b: Float64Array;
  /** The released estimate theta~ (the prior's estimate before the first release). */
  private readonly theta: Float64Array;
  /** Scratch for the exact estimate A^{-1} b of a release (never read by scoring). */
  private readonly exact: Float64Array;
  private readonly eigWork: Float64Array;
  /** Certified bound on ||A^{-1}||_2 (the sensitivity), from the public design matrix. */
  private sens: number;
  private nextRefresh = 1;
  private releases = 0;
  /** True when data arrived since the last release. */
  private stale = false;

  constructor(
    id: PolicyId,
    config: PolicyConfigFor<'dgs-linucb'>,
    calibration: NoiseCalibration,
    ledger: LedgerLike,
  ) {
    super(id, config, ledger);
    const d = this.d;
    this.lambda = config.lambda;
    this.alpha = config.alpha;
    this.mechanism = this.createMechanism(calibration, d);
    this.factor = new RidgeFactor(d, this.lambda, true);
    this.b = new Float64Array(d);
    const pm = config.priorMean;
    for (let i = 0; i < d; i++) this.b[i] = this.lambda * pm[i]!;
    this.theta = new Float64Array(d);
    this.factor.solve(this.b, this.theta);
    this.exact = new Float64Array(d);
    this.eigWork = new Float64Array(2 * d);
    this.sens = 1 / this.lambda;
  }

  protected choose(k: number): number {
    if (this.stale) this.releaseEstimate();
    this.scoreArms(k, this.scoreBuf);
    return argmaxFirst(this.scoreBuf, k);
  }

  /** x^T theta + alpha ||x||_(W^-1) from the released estimate; no state change. Cost K d^2 / 2. */
  protected scoreArms(k: number, out: Float64Array): void {
    const d = this.d;
    const f = this.feats;
    const th = this.theta;
    const alpha = this.alpha;
    for (let a = 0; a < k; a++) {
      const o = a * d;
      let m = 0;
      for (let i = 0; i < d; i++) m += f[o + i]! * th[i]!;
      const w = this.factor.invQuad(this.armViews[a]!);
      out[a] = m + alpha * Math.sqrt(w);
    }
  }

  protected learn(x: Float64Array, reward: number): void {
    const d = this.d;
    this.factor.add(x);
    for (let i = 0; i < d; i++) this.b[i] = this.b[i]! + reward * x[i]!;
    this.stale = true;
  }

  protected onFinish(): void {
    // Nothing is pending: the estimate is released only when an action needs it.
  }

  /**
   * Releases theta~ = A^{-1} b + N(0, sigma^2 I) at sensitivity ||A^{-1}||_2: one call to the
   * mechanism with the exact estimate in scratch; theta, the sensitivity, the refresh schedule and
   * the counters change only after it succeeded (a refused release throws and leaves the policy
   * as it was: the next select tries again).
   */
  private releaseEstimate(): void {
    if (this.releases >= this.horizon) {
      this.stale = false;
      return; // the T per-step budgets are used up: keep theta~
    }
    const d = this.d;
    let sens = this.sens;
    let nextRefresh = this.nextRefresh;
    if (this.rounds >= nextRefresh) {
      // ||A^{-1}||_2 <= 1 / ell, ell a certified lower bound on lambda_min(A) (warm-started inverse
      // iteration checked by a shifted Cholesky factorisation); the cap 1/lambda holds since
      // A >= lambda I, and the bound is kept non-increasing in t.
      sens = this.factor.inverseNormBound(this.eigWork, sens);
      nextRefresh = Math.max(this.rounds + 1, Math.ceil(this.rounds * REFRESH_GROWTH));
    }
    this.factor.solve(this.b, this.exact);
    this.mechanism.release(this.exact, 0, d, sens, this.theta, 0, this.rounds, 0, 'step estimate');
    this.sens = sens;
    this.nextRefresh = nextRefresh;
    this.releases++;
    this.stale = false;
  }

  /** At most one release per round with new data and at most T in all, each of rho / T. */
  protected checkReleases(spent: PrivacySpent): string | null {
    if (this.factor.terms !== this.rounds)
      return `the design matrix holds ${this.factor.terms} rounds, rounds is ${this.rounds}`;
    if (this.releases > Math.min(this.rounds, this.horizon)) {
      return `releases is ${this.releases}, more than ${Math.min(this.rounds, this.horizon)} rounds with data allow`;
    }
    return this.sequentialReleasesReason(spent, this.releases, this.mechanism.calibration.rhoPerRelease);
  }

  protected saveOwnState(): unknown {
    return {
      l: this.factor.toJSON(),
      b: encodeFloat64(this.b),
      theta: encodeFloat64(this.theta),
      eig: encodeFloat64(this.eigWork),
      sens: encodeFloat64(Float64Array.of(this.sens)),
      nextRefresh: this.nextRefresh,
      releases: this.releases,
      stale: this.stale,
    };
  }

  protected loadOwnState(state: unknown): void {
    const st = state as Record<string, unknown>;
    this.factor.load(st.l, 'l');
    decodeFloat64(st.b, this.b, 'b');
    decodeFloat64(st.theta, this.theta, 'theta');
    decodeFloat64(st.eig, this.eigWork, 'eig');
    // the sensitivity is never taken on trust: a bound certified from the restored design matrix
    // (the public features), or the stored one when it is larger (a valid bound proved earlier,
    // when A was smaller; more noise, never less), capped at 1 / lambda
    const stored = decodeFloat64(st.sens, new Float64Array(1), 'sens')[0]!;
    if (!(stored > 0 && stored < Number.POSITIVE_INFINITY)) {
      throw new RangeError(`${this.name}: snapshot field 'state.own.sens' must be a positive finite number.`);
    }
    const fresh = this.factor.inverseNormBound(Float64Array.from(this.eigWork), 1 / this.lambda);
    this.sens = Math.min(Math.max(stored, fresh), 1 / this.lambda);
    this.nextRefresh = this.readCount(st, 'nextRefresh');
    this.releases = this.readCount(st, 'releases');
    this.stale = st.stale === true;
  }
}
