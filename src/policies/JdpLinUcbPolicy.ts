/**
 * JDP-LinUCB (Shariff & Sheffet 2018; SPEC section 4): LinUCB on statistics privatised by
 * tree-based aggregation (the binary mechanism) of the augmented matrix M = sum [x; r][x; r]^T.
 *
 * Tree: m = ceil(log2 T) + 1 levels; the node of level j created at round t (t a multiple of 2^j)
 * holds the sum over rounds (t - 2^j, t] plus symmetric Gaussian noise (Z + Z^T)/sqrt(2),
 * Z_ij ~ N(0, s^2), s^2 = 16 m L^4 ln(4/delta)^2 / eps^2, L = sqrt(2). The prefix sum at round t adds
 * the nodes of the set bits of t. Regulariser shift 2 Upsilon I, Upsilon = sqrt(2 m s^2)
 * (4 sqrt(d) + 2 ln(2T/alpha_c)); width beta_t with (rho_min, rho_max) = (Upsilon, 3 Upsilon).
 *
 * Our reading (docs/policies.md), to keep O(d^2) per round:
 * - The x r block u (the only block that depends on rewards, since features are public under the
 *   SPEC's model) is released by the tree every round: u~_t = u_t + sum of the active nodes' noise.
 * - The Gram block uses the tree's noise of the prefix [1, tau], tau the last power of two
 *   (a single node), plus the exact public x x^T of later rounds: V~_t = lambda I + 2 Upsilon I +
 *   V_t + N_tau. It is refactorised (O(d^3)) only at tau = 1, 2, 4, ... (log2 T + 1 times) and kept
 *   by rank-one updates in between. If V~ is not positive definite (probability <= alpha_c by the
 *   choice of Upsilon) another Upsilon I is added until it is.
 * - The r^2 corner is never used and never released.
 * Privacy accounting: a reward is in one node per level; nodes of a level are disjoint, levels
 * compose sequentially. Each released u-node is a Gaussian release (sensitivity 1, sigma s), so the
 * ledger records one event per level used: rho = (levels used) / (2 s^2). This is far below the
 * configured budget, because the SPEC's s^2 is Shariff & Sheffet's calibration for joint DP with
 * private contexts; the ledger reports what is actually spent.
 *
 * Cost per round: rank-one update (2 d^2), ridge solve (d^2), K forward solves (K d^2 / 2), d fresh
 * normals and O(d m) for the noise sum; O(d^3) at the log2 T + 1 refresh rounds.
 */
import { symRankOneUpdate } from '../linalg/index.js';
import type { PrivacySpent } from '../privacy/ledger.js';
import { argmaxFirst } from './argmaxFirst.js';
import { BasePolicy } from './BasePolicy.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import type { PolicyId } from './Policy.js';
import type { PolicyConfigFor } from './PolicyOptions.js';
import { gaussianEvent, type LedgerLike } from './privacyAdapter.js';
import { RidgeFactor } from './RidgeFactor.js';

/** The tree parameters of JDP-LinUCB for (eps, delta, T, d, alpha_c). */
export function jdpParameters(
  epsilon: number,
  delta: number,
  horizon: number,
  dim: number,
  failureProb: number,
): { levels: number; s: number; upsilon: number } {
  const levels = Math.ceil(Math.log2(horizon)) + 1;
  const L4 = 4; // L = sqrt(2)
  const lg = Math.log(4 / delta);
  const s2 = (16 * levels * L4 * lg * lg) / (epsilon * epsilon);
  const upsilon =
    Math.sqrt(2 * levels * s2) * (4 * Math.sqrt(dim) + 2 * Math.log((2 * horizon) / failureProb));
  return { levels, s: Math.sqrt(s2), upsilon };
}

export class JdpLinUcbPolicy extends BasePolicy {
  private readonly lambda: number;
  private readonly alpha: number;
  private readonly levels: number;
  private readonly s: number;
  private readonly upsilon: number;
  private readonly failureProb: number;
  private readonly thetaBound: number;
  /** Exact public Gram sum sum x x^T (row-major d x d). */
  private readonly gramSum: Float64Array;
  /** Scratch d x d for refactorisation. */
  private readonly scratch: Float64Array;
  private readonly factor: RidgeFactor;
  /** Exact reward statistic lambda theta_0 + sum r x. */
  private readonly u: Float64Array;
  /** Node noise of the u block, one d-vector per level. */
  private readonly nodeNoise: Float64Array;
  private readonly uNoisy: Float64Array;
  private readonly theta: Float64Array;
  /**
   * Secure noise: the grid step of the discrete release of a node (sensitivity 1, d coordinates);
   * every contribution r x is rounded to it, so u, the nodes and u~ are exact grid points. 0 in
   * research mode (continuous normals, u exact in floating point as before).
   */
  private readonly grid: number;
  private shift: number;
  private levelsUsed = 0;
  private dirty = true;

  constructor(id: PolicyId, config: PolicyConfigFor<'jdp-linucb'>, epsilon: number, ledger: LedgerLike) {
    super(id, config, ledger);
    const d = this.d;
    this.lambda = config.lambda;
    this.alpha = config.alpha;
    this.failureProb = config.failureProb;
    this.thetaBound = config.thetaBound;
    const p = jdpParameters(epsilon, config.delta, this.horizon, d, this.failureProb);
    this.levels = p.levels;
    this.s = p.s;
    this.refuseUnreleasableNoise(p.s, d);
    this.upsilon = p.upsilon;
    this.shift = 2 * this.upsilon;
    this.gramSum = new Float64Array(d * d);
    this.scratch = new Float64Array(d * d);
    this.factor = new RidgeFactor(d, this.lambda + this.shift);
    this.u = new Float64Array(d);
    const pm = config.priorMean;
    this.grid = this.secureGridStep(1, d);
    const g = this.grid;
    for (let i = 0; i < d; i++) {
      const v = this.lambda * pm[i]!; // public prior: rounding it to the grid costs nothing
      this.u[i] = g > 0 ? Math.round(v / g) * g : v;
    }
    this.nodeNoise = new Float64Array(this.levels * d);
    this.uNoisy = new Float64Array(d);
    this.theta = new Float64Array(d);
  }

  /** The regulariser shift in use (2 Upsilon, more if V~ needed it). */
  get regulariserShift(): number {
    return this.shift;
  }

  protected choose(k: number): number {
    this.scoreArms(k, this.scoreBuf);
    return argmaxFirst(this.scoreBuf, k);
  }

  /** x^T theta + beta ||x||_(W^-1) from the released estimate; no state change. Cost K d^2 / 2. */
  protected scoreArms(k: number, out: Float64Array): void {
    if (this.dirty) {
      this.factor.solve(this.uNoisyOrU(), this.theta);
      this.dirty = false;
    }
    const d = this.d;
    const f = this.feats;
    const th = this.theta;
    const beta = this.alpha * this.width();
    for (let a = 0; a < k; a++) {
      const o = a * d;
      let m = 0;
      for (let i = 0; i < d; i++) m += f[o + i]! * th[i]!;
      const w = this.factor.invQuad(this.armViews[a]!);
      out[a] = m + beta * Math.sqrt(w);
    }
  }

  /**
   * beta_t = (1/2) sqrt(2 ln(2/alpha_c) + d ln(rho_max/rho_min + t/(d rho_min))) + S sqrt(rho_max)
   * + gamma, gamma = s sqrt(m) (sqrt(d) + sqrt(2 ln(2T/alpha_c))) / sqrt(rho_min): Shariff & Sheffet's
   * width with reward noise 1/2 (rewards in [0, 1]) and our bound on the u-noise in the V~^{-1} norm.
   */
  private width(): number {
    const d = this.d;
    const rmin = this.upsilon;
    const rmax = 3 * this.upsilon;
    const t = this.rounds;
    const conf =
      0.5 * Math.sqrt(2 * Math.log(2 / this.failureProb) + d * Math.log(rmax / rmin + t / (d * rmin)));
    const gamma =
      (this.s *
        Math.sqrt(this.levels) *
        (Math.sqrt(d) + Math.sqrt(2 * Math.log((2 * this.horizon) / this.failureProb)))) /
      Math.sqrt(rmin);
    return conf + this.thetaBound * Math.sqrt(rmax) + gamma;
  }

  private uNoisyOrU(): Float64Array {
    return this.rounds === 0 ? this.u : this.uNoisy;
  }

  protected learn(x: Float64Array, reward: number): void {
    const d = this.d;
    const t = this.rounds;
    if (t >= 2 ** this.levels) return; // beyond the tree built for T: the statistics stay frozen
    symRankOneUpdate(this.gramSum, d, x, 1);
    const g = this.grid;
    if (g > 0) {
      // secure: r x on the grid (moves a reward's contribution by <= g sqrt(d) in L2, which the
      // discrete release's sensitivity Delta (1 + 2^-20) + g sqrt(d) covers); sums of grid points are exact
      for (let i = 0; i < d; i++) this.u[i] = this.u[i]! + Math.round((reward * x[i]!) / g) * g;
    } else for (let i = 0; i < d; i++) this.u[i] = this.u[i]! + reward * x[i]!;
    // the node created at round t sits at level tz(t); its fresh u-noise replaces lower levels
    const level = trailingZeros(t);
    if (level < this.levels) {
      const s = this.s;
      if (g > 0) {
        // the exact discrete Gaussian g Z, Z ~ N_Z(0, (s'/g)^2): rho = 1 / (2 s^2), as recorded
        this.nodeNoise.fill(0, level * d, (level + 1) * d);
        this.addGaussianNoise(this.nodeNoise, 1, s, this.nodeNoise, level * d, (level + 1) * d);
      } else {
        this.noiseRng.fillNormal(this.nodeNoise, level * d, (level + 1) * d);
        for (let i = level * d; i < (level + 1) * d; i++) this.nodeNoise[i] = s * this.nodeNoise[i]!;
      }
      if (level >= this.levelsUsed) {
        this.levelsUsed = level + 1;
        this.ledger!.record(gaussianEvent(1, s), t, level, `tree level ${level}`);
      }
    }
    for (let i = 0; i < d; i++) this.uNoisy[i] = this.u[i]!;
    for (let j = 0; j < this.levels; j++) {
      if (Math.floor(t / 2 ** j) % 2 === 1) {
        const o = j * d;
        for (let i = 0; i < d; i++) this.uNoisy[i] = this.uNoisy[i]! + this.nodeNoise[o + i]!;
      }
    }
    if (t === 2 ** level) this.refreshGram(level);
    else this.factor.add(x);
    this.dirty = true;
  }

  /** V~ = (lambda + shift) I + sum x x^T + symmetric node noise of level `level`; O(d^3). */
  private refreshGram(level: number): void {
    const d = this.d;
    const a = this.scratch;
    const s = this.s;
    const noiseScale = level < this.levels ? s : 0;
    for (let i = 0; i < d; i++) {
      for (let j = 0; j <= i; j++) {
        // (Z + Z^T)/sqrt(2): off-diagonal N(0, s^2), diagonal N(0, 2 s^2)
        const g = this.noiseRng.normal() * noiseScale * (i === j ? Math.SQRT2 : 1);
        const v = this.gramSum[i * d + j]! + g;
        a[i * d + j] = v;
        a[j * d + i] = v;
      }
    }
    for (;;) {
      for (let i = 0; i < d; i++) a[i * d + i] = a[i * d + i]! + this.lambda + this.shift;
      if (this.factor.factor(a)) break;
      for (let i = 0; i < d; i++) a[i * d + i] = a[i * d + i]! - this.lambda - this.shift;
      this.shift += this.upsilon;
    }
  }

  protected onFinish(): void {
    // The tree has no pending release.
  }

  /** Rounds 1..n (n < 2^levels) have opened levels 0..floor(log2 n): one release of rho 1/(2 s^2) each. */
  protected checkReleases(spent: PrivacySpent): string | null {
    const n = Math.min(this.rounds, 2 ** this.levels - 1);
    const want = n === 0 ? 0 : Math.floor(Math.log2(n)) + 1;
    if (this.levelsUsed !== want)
      return `levelsUsed is ${this.levelsUsed}, ${this.rounds} rounds open ${want} tree levels`;
    return this.sequentialReleasesReason(spent, this.levelsUsed, 1 / (2 * this.s * this.s));
  }

  protected saveOwnState(): unknown {
    return {
      gramSum: encodeFloat64(this.gramSum),
      l: this.factor.toJSON(),
      u: encodeFloat64(this.u),
      nodeNoise: encodeFloat64(this.nodeNoise),
      uNoisy: encodeFloat64(this.uNoisy),
      shift: encodeFloat64(Float64Array.of(this.shift)),
      levelsUsed: this.levelsUsed,
    };
  }

  protected loadOwnState(state: unknown): void {
    const st = state as Record<string, unknown>;
    decodeFloat64(st.gramSum, this.gramSum, 'gramSum');
    this.factor.load(st.l, 'l');
    decodeFloat64(st.u, this.u, 'u');
    decodeFloat64(st.nodeNoise, this.nodeNoise, 'nodeNoise');
    decodeFloat64(st.uNoisy, this.uNoisy, 'uNoisy');
    this.shift = decodeFloat64(st.shift, new Float64Array(1), 'shift')[0]!;
    this.levelsUsed = this.readCount(st, 'levelsUsed');
    this.dirty = true;
  }
}

/** Number of trailing zero bits of a positive integer t (t < 2^53). */
function trailingZeros(t: number): number {
  let n = 0;
  while (t % 2 === 0 && t > 0) {
    t /= 2;
    n++;
  }
  return n;
}
