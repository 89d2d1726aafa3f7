/**
 * DGS-LinUCB (Wang et al. 2022; SPEC section 4): LinUCB whose ridge estimate is perturbed at every
 * step with noise scaled to a dynamic global sensitivity.
 *
 * Each round with new data releases theta~_t = theta_hat_t + N(0, sigma_t^2 I), theta_hat_t =
 * A_t^{-1}(lambda theta_0 + sum r x), sensitivity Delta_t = ||A_t^{-1}||_2 and sigma_t = Delta_t /
 * sqrt(2 rho / T): T releases on the same data compose sequentially to rho-zCDP. The action is
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
import type { PrivacySpent } from '../privacy/ledger.js';
import { argmaxFirst } from './argmaxFirst.js';
import { BasePolicy } from './BasePolicy.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import type { PolicyId } from './Policy.js';
import type { PolicyConfigFor } from './PolicyOptions.js';
import { gaussianEvent, type LedgerLike, type PrivacyEvent } from './privacyAdapter.js';
import { RidgeFactor } from './RidgeFactor.js';

/** Growth factor between two sensitivity refreshes. */
const REFRESH_GROWTH = 1.1;

export class DgsLinUcbPolicy extends BasePolicy {
  private readonly lambda: number;
  private readonly alpha: number;
  private readonly rhoStep: number;
  private readonly factor: RidgeFactor;
  private readonly b: Float64Array;
  private readonly theta: Float64Array;
  private readonly noise: Float64Array;
  private readonly eigWork: Float64Array;
  private sens: number;
  private nextRefresh = 1;
  private releases = 0;
  /** True when data arrived since the last release. */
  private stale = false;
  private event: PrivacyEvent;

  constructor(id: PolicyId, config: PolicyConfigFor<'dgs-linucb'>, rho: number, ledger: LedgerLike) {
    super(id, config, ledger);
    const d = this.d;
    this.lambda = config.lambda;
    this.alpha = config.alpha;
    this.rhoStep = rho / this.horizon;
    this.refuseUnreleasableNoise(1 / Math.sqrt(2 * this.rhoStep), d);
    this.factor = new RidgeFactor(d, this.lambda, true);
    this.b = new Float64Array(d);
    const pm = config.priorMean;
    for (let i = 0; i < d; i++) this.b[i] = this.lambda * pm[i]!;
    this.theta = new Float64Array(d);
    this.factor.solve(this.b, this.theta);
    this.noise = new Float64Array(d);
    this.eigWork = new Float64Array(2 * d);
    this.sens = 1 / this.lambda;
    this.event = gaussianEvent(this.sens, this.sens / Math.sqrt(2 * this.rhoStep));
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

  private releaseEstimate(): void {
    this.stale = false;
    if (this.releases >= this.horizon) return; // the T per-step budgets are used up: keep theta~
    const d = this.d;
    if (this.rounds >= this.nextRefresh) {
      // ||A^{-1}||_2 <= 1 / ell, ell a certified lower bound on lambda_min(A) (warm-started inverse
      // iteration checked by a shifted Cholesky factorisation); the cap 1/lambda holds since
      // A >= lambda I, and the bound is kept non-increasing in t.
      const sens = this.factor.inverseNormBound(this.eigWork, this.sens);
      if (sens !== this.sens) {
        this.sens = sens;
        this.event = gaussianEvent(sens, sens / Math.sqrt(2 * this.rhoStep));
      }
      this.nextRefresh = Math.max(this.rounds + 1, Math.ceil(this.rounds * REFRESH_GROWTH));
    }
    this.factor.solve(this.b, this.theta);
    const sigma = this.sens / Math.sqrt(2 * this.rhoStep);
    this.addGaussianNoise(this.theta, this.sens, sigma, this.noise, 0, d);
    this.releases++;
    this.ledger!.record(this.event, this.rounds, 0, 'step estimate');
  }

  /** At most one release per round with new data and at most T in all, each of rho / T. */
  protected checkReleases(spent: PrivacySpent): string | null {
    if (this.factor.terms !== this.rounds)
      return `the design matrix holds ${this.factor.terms} rounds, rounds is ${this.rounds}`;
    if (this.releases > Math.min(this.rounds, this.horizon)) {
      return `releases is ${this.releases}, more than ${Math.min(this.rounds, this.horizon)} rounds with data allow`;
    }
    return this.sequentialReleasesReason(spent, this.releases, this.rhoStep);
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
    this.sens = decodeFloat64(st.sens, new Float64Array(1), 'sens')[0]!;
    this.event = gaussianEvent(this.sens, this.sens / Math.sqrt(2 * this.rhoStep));
    this.nextRefresh = this.readCount(st, 'nextRefresh');
    this.releases = this.readCount(st, 'releases');
    this.stale = st.stale === true;
  }
}
