/**
 * zCDP-Episodic (after Azize & Basu 2024; SPEC section 4): OFUL whose estimate is released by
 * theta_hat-perturbation at episode starts.
 *
 * An episode ends after a round where det(V_t) >= cTrigger det(V_last), or when its length reaches
 * twice the previous episode's length (geometric growth; the first episode has length 1). At an
 * episode start the policy releases theta~ = theta_hat + N(0, sigma_theta^2 I) with
 * theta_hat = V^{-1}(lambda theta_0 + sum r x), sensitivity Delta_theta = ||V^{-1}||_2 (one reward
 * moves theta_hat by ||V^{-1} x dr|| <= ||V^{-1}||_2) and sigma_theta = Delta_theta / sqrt(2 rho_e).
 * Every release reads all past rewards: they compose sequentially, rho_e = rho / M_max with
 * M_max = min(T, ceil(d ln(1 + T/(d lambda)) / ln cTrigger) + ceil(log2 T) + 1) (det-triggered
 * episodes plus length-triggered ones). Releases beyond M_max are not made (the last estimate is
 * kept), so the run never exceeds rho. Within an episode a_t = argmax x^T theta~ + alpha ||x||_{V_e^{-1}}
 * with V_e the design matrix at the episode start.
 *
 * Cost per round: rank-one update (2 d^2), d logarithms, K forward solves (K d^2 / 2); an episode
 * start adds a ridge solve, a warm-started inverse iteration for ||V^{-1}||_2 (O(d^2) per iteration,
 * at most 100) and its certificate, a shifted Cholesky factorisation of V (d^3 / 6 multiply-adds); at most
 * M_max times. Before d rounds neither is needed: ||V^{-1}||_2 = 1 / lambda exactly.
 */
import type { GaussianMechanism, LedgerLike, NoiseCalibration } from '../mechanisms/index.js';
import type { PrivacySpent } from '../privacy/ledger.js';
import { argmaxFirst } from './argmaxFirst.js';
import { BasePolicy } from './BasePolicy.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import type { PolicyId } from './Policy.js';
import type { PolicyConfigFor } from './PolicyOptions.js';
import { RidgeFactor } from './RidgeFactor.js';

/** The episode bound M_max of zCDP-Episodic for horizon T (see the class comment). */
export function episodeBound(dim: number, horizon: number, lambda: number, cTrigger: number): number {
  const lengthEpisodes = Math.ceil(Math.log2(horizon)) + 1;
  if (cTrigger <= 1) return horizon;
  const detEpisodes = Math.ceil((dim * Math.log1p(horizon / (dim * lambda))) / Math.log(cTrigger));
  return Math.max(1, Math.min(horizon, detEpisodes + lengthEpisodes));
}

export class ZcdpEpisodicPolicy extends BasePolicy {
  private readonly lambda: number;
  private readonly alpha: number;
  private readonly logC: number;
  /** rho per episode release. */
  readonly rhoEpisode: number;
  /** The episode bound M_max. */
  readonly maxEpisodes: number;
  /** The episode release (M_max compositions under the policy's accountant). */
  private readonly mechanism: GaussianMechanism;
  private readonly gram: RidgeFactor;
  private readonly active: RidgeFactor;
  private readonly b: Float64Array;
  /** The released estimate theta~ (the prior's estimate before the first release). */
  private readonly theta: Float64Array;
  /** Scratch for the exact estimate V^{-1} b of a release (never read by scoring). */
  private readonly exact: Float64Array;
  private readonly eigWork: Float64Array;
  private logDetLast: number;
  private inEpisode = 0;
  private lengthCap = 1;
  private releases = 0;
  /** Certified bound on ||V^{-1}||_2 in use (1 / lambda until the first certificate) and its round. */
  private sens: number;
  private certRound = 0;

  /** `calibration`: the noise of M_max = episodeBound(...) sequential releases. */
  constructor(
    id: PolicyId,
    config: PolicyConfigFor<'zcdp-episodic'>,
    calibration: NoiseCalibration,
    ledger: LedgerLike,
  ) {
    super(id, config, ledger);
    const d = this.d;
    this.lambda = config.lambda;
    this.alpha = config.alpha;
    const c = config.cTrigger;
    this.logC = Math.log(c);
    this.maxEpisodes = episodeBound(d, this.horizon, this.lambda, c);
    this.rhoEpisode = calibration.rhoPerRelease;
    this.mechanism = this.createMechanism(calibration, d);
    this.gram = new RidgeFactor(d, this.lambda, true);
    this.active = new RidgeFactor(d, this.lambda);
    this.b = new Float64Array(d);
    const pm = config.priorMean;
    for (let i = 0; i < d; i++) this.b[i] = this.lambda * pm[i]!;
    this.theta = new Float64Array(d);
    this.active.solve(this.b, this.theta); // theta_0: no data yet, nothing to release
    this.exact = new Float64Array(d);
    this.eigWork = new Float64Array(2 * d);
    this.logDetLast = this.gram.logDet();
    this.sens = 1 / this.lambda;
  }

  protected choose(k: number): number {
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
      const w = this.active.invQuad(this.armViews[a]!);
      out[a] = m + alpha * Math.sqrt(w);
    }
  }

  protected learn(x: Float64Array, reward: number): void {
    const d = this.d;
    this.gram.add(x);
    for (let i = 0; i < d; i++) this.b[i] = this.b[i]! + reward * x[i]!;
    this.inEpisode++;
    if (this.inEpisode >= this.lengthCap || this.gram.logDet() >= this.logDetLast + this.logC) {
      this.startEpisode();
    }
  }

  protected onFinish(): void {
    // Nothing is pending: the data of the last episode is never released.
  }

  /**
   * Starts an episode and releases theta~ = V^{-1} b + N(0, sigma_theta^2 I): one call to the
   * mechanism with the exact estimate in scratch. The estimate, the active matrix, the sensitivity
   * and the episode counters change only after it succeeded (a refused release throws and leaves
   * the policy's released state as it was; the next update tries again).
   */
  private startEpisode(): void {
    const lengthCap = 2 * this.inEpisode;
    const logDetLast = this.gram.logDet();
    if (this.releases >= this.maxEpisodes) {
      // budget used up: keep the last estimate
      this.lengthCap = lengthCap;
      this.inEpisode = 0;
      this.logDetLast = logDetLast;
      return;
    }
    // ||V^{-1}||_2 <= 1 / ell with ell a certified lower bound on lambda_min(V) (at most 0.1% below
    // it after convergence); the cap 1/lambda is always valid since V >= lambda I.
    // The bound is re-certified at most once every d rounds (d^3 / 6 each: amortised d^2 / 6 per
    // round, whatever cTrigger; with cTrigger = 1 every round starts an episode). In between the last
    // certified bound is reused: V only grows, so ||V^{-1}||_2 only falls and it stays valid.
    let sens = this.sens;
    let certRound = this.certRound;
    if (this.rounds >= certRound + this.d) {
      sens = this.gram.inverseNormBound(this.eigWork, sens);
      certRound = this.rounds;
    }
    // gram and the active copy share the factor: the same solve as active.solve after copyFrom
    this.gram.solve(this.b, this.exact);
    this.mechanism.release(this.exact, 0, this.d, sens, this.theta, 0, this.rounds, 0, 'episode estimate');
    this.active.copyFrom(this.gram);
    this.sens = sens;
    this.certRound = certRound;
    this.releases++;
    this.lengthCap = lengthCap;
    this.inEpisode = 0;
    this.logDetLast = logDetLast;
  }

  /** At most M_max episode releases, at most one per round, each of rho / M_max. */
  protected checkReleases(spent: PrivacySpent): string | null {
    if (this.gram.terms !== this.rounds)
      return `the design matrix holds ${this.gram.terms} rounds, rounds is ${this.rounds}`;
    if (this.releases > Math.min(this.rounds, this.maxEpisodes)) {
      return `releases is ${this.releases}, more than min(rounds, M_max) = ${Math.min(this.rounds, this.maxEpisodes)}`;
    }
    return this.sequentialReleasesReason(spent, this.releases, this.rhoEpisode);
  }

  protected saveOwnState(): unknown {
    return {
      gram: this.gram.toJSON(),
      active: this.active.toJSON(),
      b: encodeFloat64(this.b),
      theta: encodeFloat64(this.theta),
      eig: encodeFloat64(this.eigWork),
      logDetLast: encodeFloat64(Float64Array.of(this.logDetLast)),
      inEpisode: this.inEpisode,
      lengthCap: this.lengthCap,
      releases: this.releases,
      sens: encodeFloat64(Float64Array.of(this.sens)),
      certRound: this.certRound,
    };
  }

  protected loadOwnState(state: unknown): void {
    const st = state as Record<string, unknown>;
    this.gram.load(st.gram, 'gram');
    this.active.load(st.active, 'active');
    decodeFloat64(st.b, this.b, 'b');
    decodeFloat64(st.theta, this.theta, 'theta');
    decodeFloat64(st.eig, this.eigWork, 'eig');
    this.logDetLast = decodeFloat64(st.logDetLast, new Float64Array(1), 'logDetLast')[0]!;
    this.inEpisode = this.readCount(st, 'inEpisode');
    this.lengthCap = this.readCount(st, 'lengthCap');
    this.releases = this.readCount(st, 'releases');
    this.certRound = this.readCount(st, 'certRound');
    // the sensitivity is never taken on trust: a bound certified from the restored design matrix
    // (public features), or the stored one when it is larger (more noise, never less), capped at 1 / lambda
    const stored = decodeFloat64(st.sens, new Float64Array(1), 'sens')[0]!;
    if (!(stored > 0 && stored < Number.POSITIVE_INFINITY)) {
      throw new RangeError(`${this.name}: snapshot field 'state.own.sens' must be a positive finite number.`);
    }
    const fresh = this.gram.inverseNormBound(Float64Array.from(this.eigWork), 1 / this.lambda);
    this.sens = Math.min(Math.max(stored, fresh), 1 / this.lambda);
  }
}
