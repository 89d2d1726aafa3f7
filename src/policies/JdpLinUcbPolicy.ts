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
import {
  fixedCalibration,
  type GaussianMechanism,
  jdpTreeVariance,
  type LedgerLike,
} from '../mechanisms/index.js';
import type { PrivacySpent } from '../privacy/ledger.js';
import { argmaxFirst } from './argmaxFirst.js';
import { BasePolicy } from './BasePolicy.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import type { PolicyId } from './Policy.js';
import type { PolicyConfigFor } from './PolicyOptions.js';
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
  const s2 = jdpTreeVariance(epsilon, delta, levels);
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
  /** The tree's node releases (sensitivity 1, noise s) and the Gram block's public-data noise. */
  private readonly mechanism: GaussianMechanism;
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
  /**
   * Per tree level j, the most releases one node of level j has had (0: level not opened yet). A
   * record is in one node per level, so the worst record's cost is at most the sum over levels of
   * these counts, each rho = 1 / (2 s^2): what the ledger holds. Without rewinds each is 0 or 1.
   */
  private readonly levelCount: Float64Array;
  /**
   * Rounds learned in earlier passes, as (from, to] pairs: a rewind (`restore(s, { rewind: true })`)
   * ends a pass, and a node created at round t is then released once more for every earlier pass
   * that reached t. Kept across rewinds with the ledger (never rolled back).
   */
  private passes: number[] = [];
  /** The round the current pass started from (0, or the round a rewind went back to). */
  private passFrom = 0;
  /** Per-level ledger labels (precomputed: no allocation per round). */
  private readonly labels: readonly string[];
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
    this.mechanism = this.createMechanism(fixedCalibration(p.s), d);
    this.upsilon = p.upsilon;
    this.shift = 2 * this.upsilon;
    this.gramSum = new Float64Array(d * d);
    this.scratch = new Float64Array(d * d);
    this.factor = new RidgeFactor(d, this.lambda + this.shift);
    this.u = new Float64Array(d);
    const pm = config.priorMean;
    this.grid = this.mechanism.gridStep(1, d);
    const g = this.grid;
    for (let i = 0; i < d; i++) {
      const v = this.lambda * pm[i]!; // public prior: rounding it to the grid costs nothing
      this.u[i] = g > 0 ? Math.round(v / g) * g : v;
    }
    this.nodeNoise = new Float64Array(this.levels * d);
    this.levelCount = new Float64Array(this.levels);
    this.labels = Array.from({ length: this.levels }, (_, j) => `tree level ${j}`);
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

  /**
   * Round t releases the node created at t first (its noise only: the exact sum is kept in u), so a
   * refused release leaves the policy as it was (the round is not learned); then the round is added
   * to the exact statistics and the prefix u~_t = u_t + the open nodes' noise is formed.
   */
  protected learn(x: Float64Array, reward: number): void {
    const d = this.d;
    const t = this.rounds;
    if (t >= 2 ** this.levels) return; // beyond the tree built for T: the statistics stay frozen
    // the node created at round t sits at level tz(t) < levels; its fresh u-noise replaces lower levels.
    // Secure: the exact discrete Gaussian g Z, Z ~ N_Z(0, (s'/g)^2), rho = 1 / (2 s^2); research
    // mode: s z from the seeded stream. It costs rho when this node has now been released more often
    // than any node of its level before (the level opens, or a rewind re-releases it); else it
    // composes in parallel with those.
    const level = trailingZeros(t);
    const count = 1 + passesThrough(this.passes, t);
    const costs = count > this.levelCount[level]!;
    try {
      if (costs)
        this.mechanism.releaseNoise(this.nodeNoise, level * d, d, 1, true, t, level, this.labels[level]!);
      else this.mechanism.releaseNoise(this.nodeNoise, level * d, d, 1, false, t, 0, PARALLEL_LABEL);
    } catch (e) {
      this.rounds--; // nothing of this round was learned
      throw e;
    }
    if (costs) this.levelCount[level] = count;
    symRankOneUpdate(this.gramSum, d, x, 1);
    const g = this.grid;
    if (g > 0) {
      // secure: r x on the grid (moves a reward's contribution by <= g sqrt(d) in L2, which the
      // discrete release's sensitivity Delta (1 + 2^-20) + g sqrt(d) covers); sums of grid points are exact
      for (let i = 0; i < d; i++) this.u[i] = this.u[i]! + Math.round((reward * x[i]!) / g) * g;
    } else for (let i = 0; i < d; i++) this.u[i] = this.u[i]! + reward * x[i]!;
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
    const noiseScale = level < this.levels ? this.s : 0;
    // (Z + Z^T)/sqrt(2) on the public Gram block (costs nothing: features are public)
    this.mechanism.symmetricNoise(a, d, noiseScale);
    for (let i = 0; i < d; i++) {
      for (let j = 0; j <= i; j++) {
        const v = this.gramSum[i * d + j]! + a[i * d + j]!;
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

  /**
   * Every learned round t < 2^levels released one node (the ledger counts each), and the ledger's
   * rho is the sum over levels of the most releases of one node (each 1 / (2 s^2)), both derived
   * from the passes (rewinds) and the rounds.
   */
  protected checkReleases(spent: PrivacySpent): string | null {
    if (this.passFrom > this.rounds) return `passFrom is ${this.passFrom}, after rounds ${this.rounds}`;
    const cap = 2 ** this.levels - 1;
    const want = treeReleases(this.passes, this.passFrom, Math.min(this.rounds, cap), this.levels);
    for (let j = 0; j < this.levels; j++) {
      if (this.levelCount[j] !== want.levelCount[j]) {
        return `tree level ${j} shows ${this.levelCount[j]} releases of one node, the rounds and passes make ${want.levelCount[j]}`;
      }
    }
    if (spent.releases !== want.releases) {
      return `releases is ${spent.releases}, the rounds and passes make ${want.releases} node releases`;
    }
    let units = 0;
    for (let j = 0; j < this.levels; j++) units += this.levelCount[j]!;
    const rho = units / (2 * this.s * this.s);
    if (units > 0 && !(Math.abs((spent.rho ?? 0) - rho) <= 1e-9 * rho)) {
      return `rho is ${spent.rho}, ${units} costed node releases of rho ${1 / (2 * this.s * this.s)} make ${rho}`;
    }
    return null;
  }

  /** A rewind keeps the passes with the ledger: the rounds learned since the last pass began end one. */
  protected override rewindCarry(): unknown {
    return {
      passes: [...this.passes, this.passFrom, this.rounds],
      levelCount: Float64Array.from(this.levelCount),
    };
  }

  protected override applyRewindCarry(carry: unknown): void {
    const c = carry as { passes: number[]; levelCount: Float64Array };
    this.passes = c.passes;
    this.passFrom = this.rounds;
    for (let j = 0; j < this.levels; j++)
      this.levelCount[j] = Math.max(this.levelCount[j]!, c.levelCount[j]!);
  }

  protected saveOwnState(): unknown {
    return {
      gramSum: encodeFloat64(this.gramSum),
      l: this.factor.toJSON(),
      u: encodeFloat64(this.u),
      nodeNoise: encodeFloat64(this.nodeNoise),
      uNoisy: encodeFloat64(this.uNoisy),
      shift: encodeFloat64(Float64Array.of(this.shift)),
      levelCount: encodeFloat64(this.levelCount),
      passes: [...this.passes],
      passFrom: this.passFrom,
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
    decodeFloat64(st.levelCount, this.levelCount, 'levelCount');
    for (let j = 0; j < this.levels; j++) {
      const c = this.levelCount[j]!;
      if (!(Number.isSafeInteger(c) && c >= 0)) {
        throw new RangeError(
          `${this.name}: snapshot field 'state.own.levelCount' must hold non-negative integers.`,
        );
      }
    }
    const passes = st.passes;
    if (!Array.isArray(passes) || passes.length % 2 !== 0) {
      throw new RangeError(
        `${this.name}: snapshot field 'state.own.passes' must be an array of (from, to) pairs.`,
      );
    }
    for (let i = 0; i < passes.length; i += 2) {
      const from = passes[i];
      const to = passes[i + 1];
      if (!(Number.isSafeInteger(from) && Number.isSafeInteger(to) && from >= 0 && from <= to)) {
        throw new RangeError(
          `${this.name}: snapshot field 'state.own.passes' must hold pairs of integers 0 <= from <= to.`,
        );
      }
    }
    this.passes = passes.slice() as number[];
    this.passFrom = this.readCount(st, 'passFrom');
    this.dirty = true;
  }
}

/** The ledger label of a node release that composes in parallel with nodes already counted. */
const PARALLEL_LABEL = 'tree node (parallel within its level)';

/** How many earlier passes (flat (from, to] pairs) learned round t. O(passes), no allocation. */
function passesThrough(passes: readonly number[], t: number): number {
  let n = 0;
  for (let i = 0; i < passes.length; i += 2) if (passes[i]! < t && t <= passes[i + 1]!) n++;
  return n;
}

/**
 * The node releases of a tree whose rounds were learned in the passes (from, to] plus (passFrom, n]
 * (n capped at 2^levels - 1): how many in all (one per learned round) and, per level, the most
 * releases of one node. O(P^2 + P levels) for P passes.
 */
function treeReleases(
  passes: readonly number[],
  passFrom: number,
  n: number,
  levels: number,
): { releases: number; levelCount: Float64Array } {
  const cap = 2 ** levels - 1;
  const all = [...passes, passFrom, n];
  let releases = 0;
  const cuts = new Set<number>();
  for (let i = 0; i < all.length; i += 2) {
    const from = Math.min(all[i]!, cap);
    const to = Math.min(all[i + 1]!, cap);
    releases += Math.max(0, to - from);
    cuts.add(from);
    cuts.add(to);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const levelCount = new Float64Array(levels);
  for (let k = 0; k + 1 < points.length; k++) {
    const a = points[k]!;
    const b = points[k + 1]!;
    let count = 0;
    for (let i = 0; i < all.length; i += 2)
      if (Math.min(all[i]!, cap) <= a && b <= Math.min(all[i + 1]!, cap)) count++;
    if (count === 0) continue;
    for (let j = 0; j < levels; j++) {
      // nodes of level j in (a, b]: multiples of 2^j that are not multiples of 2^(j+1)
      const m = Math.floor(b / 2 ** j) - Math.floor(a / 2 ** j);
      const m2 = Math.floor(b / 2 ** (j + 1)) - Math.floor(a / 2 ** (j + 1));
      if (m - m2 > 0) levelCount[j] = Math.max(levelCount[j]!, count);
    }
  }
  return { releases, levelCount };
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
