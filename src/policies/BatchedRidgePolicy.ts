/**
 * The engine behind the AdaPrivate family (TS, UCB, Amp, Adaptive) and the non-private LinTS and
 * LinUCB: ridge regression on A = lambda I + sum x x^T (public, updated every round by a rank-one
 * Cholesky update) and b = lambda theta_0 + released reward statistics.
 *
 * Private variants (SPEC section 3, Algorithm 1): the raw batch sum s = sum r_t x_t is never read
 * until the batch of B rounds ends; then b <- b + s + N(0, sigma^2 I) (Amp: b <- b + (s_sub +
 * N(0, sigma_amp^2 I)) / q with each reward kept with probability q). The action at round t depends
 * only on public features, A_t, released batches and the exploration stream, never on rewards of
 * its own batch. Non-private variants add r x to b every round.
 *
 * Cost per round: rank-one update (2 d^2) + ridge solve (d^2) + TS perturbation (d^2 / 2) or one
 * forward solve per arm for UCB (K d^2 / 2); a release adds O(d). No allocation in select/update.
 */
import { forwardSolve, minEigenvalueSpd } from '../linalg/index.js';
import type { GaussianMechanism, LedgerLike, NoiseCalibration } from '../mechanisms/index.js';
import type { PrivacySpent } from '../privacy/ledger.js';
import type { Rng } from '../random/index.js';
import { argmaxFirst } from './argmaxFirst.js';
import { BasePolicy } from './BasePolicy.js';
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import type { PolicyId } from './Policy.js';
import type { PolicyConfig } from './PolicyOptions.js';
import { RidgeFactor } from './RidgeFactor.js';
import type { UnitReleaseNoise } from './UserLevelPrivacy.js';

/** How a batched policy releases its batch sums (absent for non-private policies). */
export interface BatchRelease {
  /** Rounds per batch B. */
  readonly batchSize: number;
  /**
   * The noise of a batch release (src/mechanisms/calibrate.ts): sensitivity 1, its Poisson
   * subsampling rate `calibration.q` (1: no subsampling and no Bernoulli draws).
   */
  readonly calibration: NoiseCalibration;
  /** Label written with each release. */
  readonly label: string;
}

/** Exploration rule: Thompson sampling with scale v_k, or UCB with multiplier alpha. */
export type Exploration =
  | { readonly kind: 'ts'; readonly v: number }
  | { readonly kind: 'ucb'; readonly alpha: number }
  | {
      readonly kind: 'ts-decay';
      /** v_1 (or null: tuned, computed at the end of batch 1 from the lambda_0 estimate). */
      readonly v0: number | null;
      readonly gamma: number;
      /** Noise scale sigma used by the tuned v0 = 1 + sigma / (d sqrt(lambda_0)). */
      readonly sigma: number;
      /** Given lambda_0, or null to estimate it. */
      readonly lambda0: number | null;
    };

export class BatchedRidgePolicy extends BasePolicy {
  protected readonly factor: RidgeFactor;
  private readonly lambda: number;
  private readonly b: Float64Array;
  private readonly s: Float64Array;
  private readonly theta: Float64Array;
  private readonly z: Float64Array;
  private readonly pert: Float64Array;
  private readonly tilde: Float64Array;
  /** The released (noisy, subsampled) batch sum of the last release, before the 1/q rescaling. */
  private readonly released: Float64Array;
  /** Scratch: the batch sum with the round that completes the batch, before it is learned. */
  private readonly pendingSum: Float64Array;
  private readonly eigWork: Float64Array;
  /** Byte offsets of b, theta, z, pert, tilde in the kernels' memory, or null when they are not there. */
  private readonly kernelVectors: Int32Array | null;
  /** Byte offset of `feats` in the kernels' memory (with kernelVectors), else -1: `choose` runs in JavaScript. */
  private kernelFeats = -1;
  private readonly exploration: Exploration;
  private readonly batch: BatchRelease | null;
  /** The batch releases' mechanism (null for non-private policies). */
  private readonly mechanism: GaussianMechanism | null;
  /** Poisson subsampling rate q of the batch releases (1: none). */
  private readonly q: number;
  private dirty = true;
  private inBatch = 0;
  /** 1-based index of the current batch. */
  private batchIndex = 1;
  /** Current TS scale (v, or v_k for the decaying variant). */
  private vk: number;
  /** Tuned setting: v0 once estimated (NaN before). */
  private tunedV0 = Number.NaN;
  /** Tuned setting: the lambda_0 used (given or estimated; NaN before). */
  private lambda0Used = Number.NaN;
  /** Scratch of `countWins`, sized for mcK arms. */
  private mcK = 0;
  private mcW: Float64Array = new Float64Array(0);
  /** Byte offset of `mcW` in the kernels' memory (where `feats` is there too), else -1: JavaScript solves. */
  private mcWAt = -1;
  private mcMean = new Float64Array(0);
  private mcC = new Float64Array(0);
  private mcU = new Float64Array(0);
  private mcDup = new Int8Array(0);

  constructor(
    id: PolicyId,
    config: PolicyConfig,
    exploration: Exploration,
    batch: BatchRelease | null,
    ledger: LedgerLike | null,
  ) {
    super(id, config, ledger);
    const d = this.d;
    this.lambda = config.lambda;
    this.exploration = exploration;
    this.batch = batch;
    this.q = batch === null ? 1 : batch.calibration.q;
    // Amp with q < 1: its subsampled RDP accounting is for the continuous Gaussian (docs/privacy.md)
    this.mechanism = batch === null ? null : this.createMechanism(batch.calibration, d, this.q >= 1);
    this.factor = new RidgeFactor(d, this.lambda);
    // the vectors of the solves in the factor's memory (the WebAssembly kernels' where available)
    [this.b, this.theta, this.z, this.pert, this.tilde] = this.factor.vectors(5) as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
    ];
    // the features that `learn` receives, in the kernels' memory too: the rank-one update reads them there
    const [x] = this.factor.vectors(1) as [Float64Array];
    this.useObservationBuffer(x);
    const vecs = [this.b, this.theta, this.z, this.pert, this.tilde];
    this.kernelVectors = this.factor.holds(vecs) ? Int32Array.from(vecs, (v) => v.byteOffset) : null;
    const prior = config.priorMean;
    for (let i = 0; i < d; i++) this.b[i] = this.lambda * prior[i]!;
    this.s = new Float64Array(d);
    this.released = new Float64Array(d);
    this.pendingSum = new Float64Array(d);
    this.eigWork = new Float64Array(2 * d);
    if (exploration.kind === 'ts') this.vk = exploration.v;
    else if (exploration.kind === 'ts-decay') {
      if (exploration.v0 !== null) this.vk = exploration.v0;
      else {
        // before the first release: the a-priori lambda_0 = 1/d (or the given one)
        const l0 = exploration.lambda0 ?? 1 / d;
        this.vk = 1 + exploration.sigma / (d * Math.sqrt(l0));
      }
    } else this.vk = 0;
  }

  /** The TS scale currently in use (v_k for the decaying variant). */
  get explorationScale(): number {
    return this.vk;
  }

  /** Tuned adaptive setting: the lambda_0 used for v0 (given or estimated), NaN before batch 1 ends. */
  get lambda0Estimate(): number {
    return this.lambda0Used;
  }

  /**
   * Draws a TS parameter theta_tilde = A^{-1} b + v_k L^{-T} z exactly as `select` does (consumes
   * the exploration stream). For diagnostics and the Proposition test; TS variants only.
   *
   * @example
   * policy.sampleParameter(new Float64Array(d)); // out = one posterior sample
   */
  sampleParameter(out: Float64Array): void {
    if (this.exploration.kind === 'ucb') throw new Error(`${this.name}: sampleParameter is for TS policies.`);
    this.drawTilde();
    out.set(this.tilde);
  }

  /** The ridge estimate A^{-1} b from released data only (copied into `out`). */
  estimate(out: Float64Array): void {
    this.refresh();
    out.set(this.theta);
  }

  protected choose(k: number): number {
    if (this.exploration.kind === 'ucb') {
      this.scoreArms(k, this.scoreBuf);
      return argmaxFirst(this.scoreBuf, k);
    }
    return this.drawChoice(k, this.rng);
  }

  /**
   * One Thompson-sampling choice among the k candidates in `this.feats`, with its d normals from
   * `rng`: `choose`'s draw (the policy's stream) and the first draws of {@link drawsUntilWin} (the
   * propensity stream). Overwrites z, pert and tilde (scratch between rounds). Cost d^2 / 2 + k d
   * (plus d^2 once after a release).
   */
  private drawChoice(k: number, rng: Rng): number {
    rng.fillNormal(this.z);
    const at = this.kernelFeats;
    if (at >= 0) {
      // everything in the kernels' memory: the solves, tilde and the argmax in one call (the
      // numbers of tildeFromZ and the loop below)
      const o = this.kernelVectors!;
      const arm = this.factor.tsChooseAt(o[0]!, o[1]!, o[2]!, o[3]!, o[4]!, at, k, this.vk, this.dirty);
      this.dirty = false;
      return arm;
    }
    this.tildeFromZ();
    const d = this.d;
    const f = this.feats;
    const tl = this.tilde;
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    // two arms per sweep (two independent running sums, each in the order i = 0..d-1: the same
    // scores as one arm at a time), compared in arm order: the first maximum wins
    let a = 0;
    for (; a + 1 < k; a += 2) {
      const o = a * d;
      const o1 = o + d;
      let m = 0;
      let m1 = 0;
      for (let i = 0; i < d; i++) {
        const t = tl[i]!;
        m += f[o + i]! * t;
        m1 += f[o1 + i]! * t;
      }
      if (m > bestScore) {
        bestScore = m;
        best = a;
      }
      if (m1 > bestScore) {
        bestScore = m1;
        best = a + 1;
      }
    }
    if (a < k) {
      const o = a * d;
      let m = 0;
      for (let i = 0; i < d; i++) m += f[o + i]! * tl[i]!;
      if (m > bestScore) best = a;
    }
    return best;
  }

  /** The candidates' array in the kernels' memory when this policy's factor uses them (`choose`). */
  protected override newFeatures(length: number): Float64Array {
    const f = this.factor.buffer(length);
    this.kernelFeats = this.kernelVectors !== null && this.factor.holds([f]) ? f.byteOffset : -1;
    return f;
  }

  /** x^T theta_hat (released b only), plus alpha ||x||_{A^{-1}} for UCB. Cost K d (+ K d^2 / 2 for UCB). */
  protected scoreArms(k: number, out: Float64Array): void {
    this.refresh();
    const d = this.d;
    const f = this.feats;
    const th = this.theta;
    const ucb = this.exploration.kind === 'ucb';
    const alpha = this.exploration.kind === 'ucb' ? this.exploration.alpha : 0;
    for (let a = 0; a < k; a++) {
      const o = a * d;
      let m = 0;
      for (let i = 0; i < d; i++) m += f[o + i]! * th[i]!;
      if (ucb) {
        const w = this.factor.invQuad(this.armViews[a]!);
        out[a] = m + alpha * Math.sqrt(w);
      } else out[a] = m;
    }
  }

  /**
   * Monte Carlo of the TS choice: the scores are s = mean + v W z with W = (L^{-1} x_a)_a (k x d) and
   * z ~ N(0, I_d) (the same law as `select`'s draw, since Cov = v_k^2 x^T A^{-1} x). O(k d^2) once
   * ({@link prepareDraws}), then per draw O(k d) and d normals; with k < d the same score vector is
   * drawn from its own k x k covariance v^2 W W^T (Cholesky factor C): O(k^2) and k normals per draw.
   * Scratch buffers are kept between calls (no allocation while k does not grow). UCB, or v_k = 0:
   * deterministic (false).
   */
  protected override countWins(k: number, samples: number, rng: Rng, counts: Float64Array): boolean {
    if (!this.prepareDraws(k)) return false;
    for (let s = 0; s < samples; s++) {
      const best = this.drawWinner(k, rng);
      counts[best] = counts[best]! + 1;
    }
    return true;
  }

  /**
   * Geometric resampling: fresh draws of the TS choice from `rng` until `arm` wins, at most `cap`;
   * returns the number of draws (cap when `arm` did not win in cap draws), 0 when deterministic.
   *
   * The first {@link directDraws} draws are made as `choose` makes them ({@link drawChoice}: no
   * set-up); only when `arm` has not won by then are the rest made by {@link drawWinner} after
   * {@link prepareDraws} (O(k d^2) once, then O(k^2) or O(k d) per draw). Both are draws of the same
   * choice (the same law; they use the stream differently), so M keeps its law, and most ranks,
   * whose chosen arm is likely, never pay the set-up: at d = 50, K = 20 the mean M is ~11 but 38% of
   * ranks stop at M = 1 (docs/performance.md).
   */
  protected override drawsUntilWin(k: number, arm: number, cap: number, rng: Rng, uniformShare = 0): number {
    if (this.exploration.kind === 'ucb' || this.vk === 0) return 0;
    const direct = Math.min(cap, directDraws(this.d, k));
    for (let m = 1; m <= cap; m++) {
      if (m === direct + 1) this.prepareDraws(k);
      const winner =
        uniformShare > 0 && rng.uniform() < uniformShare
          ? rng.integer(k)
          : m <= direct
            ? this.drawChoice(k, rng)
            : this.drawWinner(k, rng);
      if (winner === arm) return m;
    }
    return cap;
  }

  /**
   * Sets up the draws of {@link drawWinner} for the k candidates in `this.feats`: W, the means and,
   * for k < d, C C^T = W W^T (k x k, Cholesky without pivoting; a zero pivot, from arms whose W rows
   * are linearly dependent, gives a zero column, exact for a positive semidefinite matrix). An arm
   * whose features equal an earlier arm's has the same score in every draw, so, as in `choose`
   * (first maximum), it never wins: marked and skipped. False when the choice is deterministic.
   */
  private prepareDraws(k: number): boolean {
    if (this.exploration.kind === 'ucb' || this.vk === 0) return false;
    this.refresh();
    const d = this.d;
    if (this.mcK < k) {
      this.mcW = this.factor.buffer(k * d);
      this.mcWAt = this.factor.holds([this.mcW]) ? this.mcW.byteOffset : -1;
      this.mcMean = new Float64Array(k);
      this.mcC = new Float64Array(k * k);
      this.mcU = new Float64Array(Math.max(k, d));
      this.mcDup = new Int8Array(k);
      this.mcK = k;
    }
    const w = this.mcW;
    const mean = this.mcMean;
    const f = this.feats;
    const th = this.theta;
    // W's rows by the kernels' forward solve where the candidates and W are in their memory (the
    // same numbers as forwardSolve.ts, no subarray per arm)
    const fAt = this.mcWAt >= 0 ? this.kernelFeats : -1;
    for (let a = 0; a < k; a++) {
      if (fAt >= 0) this.factor.forwardSolveAt(fAt + 8 * a * d, this.mcWAt + 8 * a * d);
      else forwardSolve(this.factor.l, d, this.armViews[a]!, w.subarray(a * d, (a + 1) * d));
      let m = 0;
      for (let i = 0; i < d; i++) m += f[a * d + i]! * th[i]!;
      mean[a] = m;
    }
    if (k >= d) return true;
    const c = this.mcC;
    const dup = this.mcDup;
    for (let a = 0; a < k; a++) {
      dup[a] = 0;
      for (let b = 0; b < a && dup[a] === 0; b++) {
        let same = true;
        for (let i = 0; i < d && same; i++) same = f[a * d + i] === f[b * d + i];
        if (same) dup[a] = 1;
      }
    }
    for (let j = 0; j < k; j++) {
      for (let i = j; i < k; i++) {
        let g = 0;
        for (let t = 0; t < d; t++) g += w[i * d + t]! * w[j * d + t]!;
        for (let m = 0; m < j; m++) g -= c[i * k + m]! * c[j * k + m]!;
        if (i === j) {
          let gjj = 0;
          for (let t = 0; t < d; t++) gjj += w[j * d + t]! * w[j * d + t]!;
          // a pivot at rounding level of its diagonal entry: a dependent arm, zero column
          c[j * k + j] = g > 1e-12 * gjj ? Math.sqrt(g) : 0;
        } else {
          const p = c[j * k + j]!;
          c[i * k + j] = p > 0 ? g / p : 0;
        }
      }
    }
    return true;
  }

  /** One draw of the TS choice after {@link prepareDraws}: the winning arm (first maximum). No allocation. */
  private drawWinner(k: number, rng: Rng): number {
    const d = this.d;
    const v = this.vk;
    const mean = this.mcMean;
    const u = this.mcU;
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    if (k < d) {
      const c = this.mcC;
      const dup = this.mcDup;
      rng.fillNormal(u, 0, k);
      for (let a = 0; a < k; a++) {
        if (dup[a] === 1) continue;
        const o = a * k;
        let p = 0;
        for (let m = 0; m <= a; m++) p += c[o + m]! * u[m]!;
        const sc = mean[a]! + v * p;
        if (sc > bestScore) {
          bestScore = sc;
          best = a;
        }
      }
      return best;
    }
    const w = this.mcW;
    rng.fillNormal(u); // the whole scratch (max(k, d) normals), as before the refactor: same estimates
    for (let a = 0; a < k; a++) {
      const o = a * d;
      let p = 0;
      for (let i = 0; i < d; i++) p += w[o + i]! * u[i]!;
      const sc = mean[a]! + v * p;
      if (sc > bestScore) {
        bestScore = sc;
        best = a;
      }
    }
    return best;
  }

  /**
   * Private variants: a round that completes a batch releases s + r x (in scratch) before anything
   * is learned, so a refused release leaves the policy as it was (the round is not learned and
   * `roundsLearned` does not move; the error says why).
   */
  protected learn(x: Float64Array, reward: number): void {
    const d = this.d;
    const batch = this.batch;
    if (batch === null) {
      this.factor.add(x);
      this.dirty = true;
      for (let i = 0; i < d; i++) this.b[i] = this.b[i]! + reward * x[i]!;
      return;
    }
    let keep = true;
    try {
      // user-level subsampling draws units, not rewards (one draw per unit and release: unitDraw)
      if (this.q < 1) keep = this.unitDraw ?? this.mechanism!.sample(this.q);
    } catch (e) {
      this.rounds--; // the noise source failed: nothing of this round was learned
      throw e;
    }
    if (this.inBatch + 1 >= batch.batchSize) {
      const sum = this.pendingSum;
      for (let i = 0; i < d; i++) sum[i] = keep ? this.s[i]! + reward * x[i]! : this.s[i]!;
      try {
        this.release(sum);
      } catch (e) {
        this.rounds--; // nothing of this round was learned
        throw e;
      }
      this.factor.add(x);
      this.afterRelease();
      return;
    }
    this.factor.add(x);
    this.dirty = true;
    if (keep) for (let i = 0; i < d; i++) this.s[i] = this.s[i]! + reward * x[i]!;
    this.inBatch++;
  }

  protected override unitSample(q: number): boolean {
    return this.mechanism!.sample(q);
  }

  protected override unitReleaseNoise(): UnitReleaseNoise {
    const batch = this.batch;
    if (batch === null) throw new Error(`${this.name}: internal error, no release noise (non-private).`);
    return this.noiseOf(batch.calibration);
  }

  protected onFinish(): void {
    if (this.batch !== null && this.inBatch > 0) {
      this.release(this.s);
      this.afterRelease();
    }
  }

  /**
   * Releases the current batch: b <- b + (s + N(0, sigma^2 I)) / q. O(d). The release is one call to
   * the mechanism (noise, ledger, released sum); b and the batch counters change only after it
   * succeeded (a refused release throws and leaves them, and the raw sum s, as they were).
   */
  private release(sum: Float64Array): void {
    const batch = this.batch!;
    const d = this.d;
    const out = this.released;
    // sensitivity 1 per reward; c for a user-level policy (a unit's at most c rewards in the batch)
    this.mechanism!.release(
      sum,
      0,
      d,
      this.releaseSensitivity,
      out,
      0,
      this.rounds,
      this.batchIndex,
      batch.label,
    );
    const invQ = 1 / this.q;
    for (let i = 0; i < d; i++) {
      this.b[i] = this.b[i]! + out[i]! * invQ;
      this.s[i] = 0;
    }
    this.inBatch = 0;
    this.batchIndex++;
    this.dirty = true;
  }

  /** After a release and its round's features: the decaying TS scale of the next batch. */
  private afterRelease(): void {
    const d = this.d;
    const ex = this.exploration;
    if (ex.kind === 'ts-decay') {
      if (ex.v0 === null && Number.isNaN(this.tunedV0)) {
        let l0 = ex.lambda0;
        if (l0 === null) {
          // Estimate of Assumption 2's growth rate: lambda_min(A_t) >= lambda + lambda_0 t, from the
          // public design matrix at the end of batch 1 (t rounds); fall back to 1/d if degenerate.
          const lmin = minEigenvalueSpd(this.factor.l, d, this.eigWork);
          const est = (lmin - this.lambda) / this.rounds;
          l0 = est > 0 && Number.isFinite(est) ? est : 1 / d;
        }
        this.lambda0Used = l0;
        this.tunedV0 = 1 + ex.sigma / (d * Math.sqrt(l0));
      }
      const v0 = ex.v0 ?? this.tunedV0;
      this.vk = v0 * ex.gamma ** (this.batchIndex - 1);
    }
  }

  private refresh(): void {
    if (this.dirty) {
      this.factor.solve(this.b, this.theta);
      this.dirty = false;
    }
  }

  private drawTilde(): void {
    this.rng.fillNormal(this.z);
    this.tildeFromZ();
  }

  /** tilde = A^{-1} b + v_k L^{-T} z from the normals already in z. */
  private tildeFromZ(): void {
    const d = this.d;
    if (this.dirty) {
      // the ridge estimate and the perturbation from one pass over L (as refresh + perturbation)
      this.factor.solveAndPerturb(this.b, this.theta, this.z, this.pert);
      this.dirty = false;
    } else this.factor.perturbation(this.z, this.pert);
    const v = this.vk;
    for (let i = 0; i < d; i++) this.tilde[i] = this.theta[i]! + v * this.pert[i]!;
  }

  /**
   * Released batches = batchIndex - 1; rounds = full batches plus the current one; s = 0 between
   * batches. A user-level policy releases its open batch at each epoch boundary, full or not: its
   * released batches hold 1..B rounds each.
   */
  protected checkReleases(spent: PrivacySpent): string | null {
    const batch = this.batch;
    if (batch === null) return null;
    const B = batch.batchSize;
    const released = this.batchIndex - 1;
    const r = this.rounds;
    if (this.inBatch >= B) return `inBatch is ${this.inBatch}, at least batchSize ${B}`;
    if (this.unitLevel !== null && !this.isFinished) {
      if (r > released * B + this.inBatch || r < released + this.inBatch)
        return `rounds is ${r}, but ${released} released batches of 1 to ${B} plus ${this.inBatch} pending rounds make ${released + this.inBatch} to ${released * B + this.inBatch}`;
    } else if (!this.isFinished && r !== released * B + this.inBatch) {
      return `rounds is ${r}, but ${released} released batches of ${B} plus ${this.inBatch} pending rounds make ${released * B + this.inBatch}`;
    }
    const partials = this.unitLevel !== null; // any release may be partial (epoch boundaries)
    if (
      this.isFinished &&
      (this.inBatch !== 0 ||
        r > released * B ||
        (partials ? r < released : released > 0 && r <= (released - 1) * B))
    ) {
      return `rounds is ${r}, which ${released} released batches of ${B} (the last one partial) cannot hold`;
    }
    if (this.inBatch === 0 && this.s.some((v) => v !== 0))
      return 'the raw batch sum is not zero at a batch boundary';
    return (
      this.traceReason(this.factor.trace(), this.lambda, r) ??
      this.parallelReleasesReason(spent, released, batch.calibration.event(this.releaseSensitivity))
    );
  }

  protected saveOwnState(): unknown {
    return {
      l: this.factor.toJSON(),
      b: encodeFloat64(this.b),
      s: encodeFloat64(this.s),
      inBatch: this.inBatch,
      batchIndex: this.batchIndex,
      vk: encodeFloat64(Float64Array.of(this.vk, this.tunedV0, this.lambda0Used)),
    };
  }

  protected loadOwnState(state: unknown): void {
    const st = state as Record<string, unknown>;
    this.factor.load(st.l, 'l');
    decodeFloat64(st.b, this.b, 'b');
    decodeFloat64(st.s, this.s, 's');
    this.inBatch = this.readCount(st, 'inBatch');
    this.batchIndex = Math.max(1, this.readCount(st, 'batchIndex'));
    const v = decodeFloat64(st.vk, new Float64Array(3), 'vk');
    this.vk = v[0]!;
    this.tunedV0 = v[1]!;
    this.lambda0Used = v[2]!;
    this.dirty = true;
  }
}

/**
 * How many of geometric resampling's draws {@link BatchedRidgePolicy} makes without set-up before it
 * prepares the cheaper ones: the set-up's multiply-adds (k forward solves, d^2 / 2 each, and for
 * k < d the k x k Gram matrix, k^2 d / 2) over one direct draw's (a d^2 / 2 solve, k d scores and d
 * normals at ~4 each), at least 1: the rent-or-buy rule, never more than about twice the cheaper
 * plan's work. d = 20, K = 5: 3; d = 50, K = 20: 14.
 */
export function directDraws(d: number, k: number): number {
  const setUp = (k * d * d) / 2 + (k < d ? (k * k * d) / 2 : 0);
  const draw = (d * d) / 2 + k * d + 4 * d;
  return Math.max(1, Math.round(setUp / draw));
}
