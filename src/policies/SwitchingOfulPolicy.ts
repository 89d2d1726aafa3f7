/**
 * Rarely switching OFUL with zCDP releases of the reward statistic (SPEC section 4):
 * AdaC-OFUL-zCDP (Azize & Basu 2024, with forgetting) and RarelySwitching-zCDP (no forgetting;
 * the switch rule of Abbasi-Yadkori et al. 2011).
 *
 * An episode ends after a round where det(V_t) >= cTrigger det(V_last) (V_t = lambda I + sum x x^T,
 * public). At the switch the episode's raw reward statistic s_e = sum r x is released once as
 * s_e + N(0, sigma^2 I), sigma = 1/sqrt(2 rho) (sensitivity 1; accountant 'zcdp', else the
 * noise of one release under the policy's accountant). Each reward is in exactly one
 * episode, so the releases compose in parallel: the run is rho-zCDP.
 * - Forgetting (AdaC-OFUL-zCDP): the next episode acts on theta = V_e^{-1}(lambda theta_0 + s~_e)
 *   with V_e = lambda I + the finished episode's x x^T only.
 * - No forgetting (RarelySwitching-zCDP): theta = V^{-1}(lambda theta_0 + sum of all released s~).
 * Within an episode: a_t = argmax x^T theta + alpha ||x||_{W^{-1}}, W the matrix theta was computed
 * with (no extra inflation for the noise: alpha is tuned on the paper's grid, docs/policies.md).
 *
 * Cost per round: two rank-one updates (4 d^2; one with forgetting only), K forward solves
 * (K d^2 / 2) and d logarithms for det V; a switch costs O(d^2). No allocation in select/update.
 */
import type { GaussianMechanism, LedgerLike, NoiseCalibration } from '../mechanisms/index.js';
import type { PrivacySpent } from '../privacy/ledger.js';
import { argmaxFirst } from './argmaxFirst.js';
import { BasePolicy } from './BasePolicy.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import type { PolicyId } from './Policy.js';
import type { PolicyConfigFor } from './PolicyOptions.js';
import { RidgeFactor } from './RidgeFactor.js';
import type { UnitReleaseNoise } from './UserLevelPrivacy.js';

export class SwitchingOfulPolicy extends BasePolicy {
  private readonly lambda: number;
  private readonly alpha: number;
  private readonly logC: number;
  private readonly forgetting: boolean;
  /** The episode statistic's release (one per reward: parallel composition). */
  private readonly mechanism: GaussianMechanism;
  /** Cumulative V_t (switch rule; the estimate without forgetting). */
  private readonly gram: RidgeFactor;
  /** lambda I + this episode's x x^T (forgetting only). */
  private readonly episodeGram: RidgeFactor;
  /** The matrix of the current estimate (width and estimate). */
  private readonly active: RidgeFactor;
  private readonly prior: Float64Array;
  private readonly s: Float64Array;
  private readonly bAcc: Float64Array;
  private readonly theta: Float64Array;
  /** The released statistic of the last switch. */
  private readonly released: Float64Array;
  private readonly work: Float64Array;
  private logDetLast: number;
  private inEpisode = 0;
  private episode = 1;

  constructor(
    id: PolicyId,
    config: PolicyConfigFor<'adac-oful-zcdp' | 'rarely-switching-zcdp'>,
    forgetting: boolean,
    calibration: NoiseCalibration,
    ledger: LedgerLike,
  ) {
    super(id, config, ledger);
    const d = this.d;
    this.lambda = config.lambda;
    this.alpha = config.alpha;
    this.logC = Math.log(config.cTrigger);
    this.mechanism = this.createMechanism(calibration, d);
    this.forgetting = forgetting;
    this.gram = new RidgeFactor(d, this.lambda);
    this.episodeGram = new RidgeFactor(d, this.lambda);
    this.active = new RidgeFactor(d, this.lambda);
    this.prior = new Float64Array(d);
    const pm = config.priorMean;
    for (let i = 0; i < d; i++) this.prior[i] = this.lambda * pm[i]!;
    this.s = new Float64Array(d);
    this.bAcc = Float64Array.from(this.prior);
    this.theta = new Float64Array(d);
    this.active.solve(this.prior, this.theta);
    this.released = new Float64Array(d);
    this.work = new Float64Array(d);
    this.logDetLast = this.gram.logDet();
  }

  /** Number of the current episode (1-based). */
  get episodeNumber(): number {
    return this.episode;
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
    if (this.forgetting) this.episodeGram.add(x);
    for (let i = 0; i < d; i++) this.s[i] = this.s[i]! + reward * x[i]!;
    this.inEpisode++;
    if (this.gram.logDet() >= this.logDetLast + this.logC) this.switchEpisode();
  }

  protected override unitReleaseNoise(): UnitReleaseNoise {
    return this.noiseOf(this.mechanism.calibration);
  }

  protected onFinish(): void {
    if (this.inEpisode > 0) this.switchEpisode();
  }

  /**
   * Releases the finished episode's statistic (one call to the mechanism) and recomputes the
   * estimate. O(d^2). A refused release throws before anything changes (the raw sum stays unreleased).
   */
  private switchEpisode(): void {
    const d = this.d;
    const out = this.released;
    // sensitivity 1 per reward; c for a user-level policy
    this.mechanism.release(
      this.s,
      0,
      d,
      this.releaseSensitivity,
      out,
      0,
      this.rounds,
      this.episode,
      'episode statistic',
    );
    const w = this.work;
    for (let i = 0; i < d; i++) {
      const released = out[i]!;
      this.s[i] = 0;
      if (this.forgetting) w[i] = this.prior[i]! + released;
      else {
        this.bAcc[i] = this.bAcc[i]! + released;
        w[i] = this.bAcc[i]!;
      }
    }
    if (this.forgetting) {
      this.active.copyFrom(this.episodeGram);
      this.episodeGram.reset(this.lambda);
    } else this.active.copyFrom(this.gram);
    this.active.solve(w, this.theta);
    this.logDetLast = this.gram.logDet();
    this.inEpisode = 0;
    this.episode++;
  }

  /** Released episodes = episode - 1, each one release of sigma = 1/sqrt(2 rho) on its own rewards. */
  protected checkReleases(spent: PrivacySpent): string | null {
    if (this.inEpisode > this.rounds)
      return `inEpisode is ${this.inEpisode}, more than rounds ${this.rounds}`;
    if (this.episode - 1 > this.rounds)
      return `episode is ${this.episode}, more than rounds ${this.rounds} allow`;
    if (this.inEpisode === 0 && this.s.some((v) => v !== 0))
      return 'the raw episode sum is not zero at a switch';
    return (
      this.traceReason(this.gram.trace(), this.lambda, this.rounds) ??
      this.parallelReleasesReason(
        spent,
        this.episode - 1,
        this.mechanism.calibration.event(this.releaseSensitivity),
      )
    );
  }

  protected saveOwnState(): unknown {
    return {
      gram: this.gram.toJSON(),
      episodeGram: this.episodeGram.toJSON(),
      active: this.active.toJSON(),
      s: encodeFloat64(this.s),
      bAcc: encodeFloat64(this.bAcc),
      theta: encodeFloat64(this.theta),
      logDetLast: encodeFloat64(Float64Array.of(this.logDetLast)),
      inEpisode: this.inEpisode,
      episode: this.episode,
    };
  }

  protected loadOwnState(state: unknown): void {
    const st = state as Record<string, unknown>;
    this.gram.load(st.gram, 'gram');
    this.episodeGram.load(st.episodeGram, 'episodeGram');
    this.active.load(st.active, 'active');
    decodeFloat64(st.s, this.s, 's');
    decodeFloat64(st.bAcc, this.bAcc, 'bAcc');
    decodeFloat64(st.theta, this.theta, 'theta');
    this.logDetLast = decodeFloat64(st.logDetLast, new Float64Array(1), 'logDetLast')[0]!;
    this.inEpisode = this.readCount(st, 'inEpisode');
    this.episode = Math.max(1, this.readCount(st, 'episode'));
  }
}
