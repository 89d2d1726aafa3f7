/**
 * The Gaussian mechanism of one policy: the only code that draws privacy noise (docs/privacy.md,
 * "The mechanisms room"). A release is one call: the statistic, its L2 sensitivity (computed by the
 * policy from public state when it releases) and the policy's calibrated noise go in; the noise is
 * drawn into the mechanism's own scratch, the event is recorded in the ledger, and only then is the
 * noisy value written where the policy reads it. A refused release ({@link ReleaseRefusedError})
 * writes nothing and records nothing, so the policy keeps only what it had released before.
 *
 * Noise: with secure noise, the exact discrete Gaussian on a fine grid (`discreteGaussianRelease`,
 * the same rho), unless the mechanism is continuous (AdaPrivate-TS-Amp's subsampled release, whose
 * RDP analysis is for the continuous Gaussian: polar normals from the secure bits). Research mode
 * (a seeded stream): stat + sigma z with z from the seeded stream, bit-identical to the policies
 * before the room existed. The seeded path allocates nothing; the discrete one uses BigInt draws.
 */
import { type PrivacyEvent, zcdpEvent } from '../privacy/index.js';
import type { Rng, SecureRng } from '../random/index.js';
import type { NoiseCalibration } from './calibrate.js';
import {
  discreteGaussianRelease,
  discreteGridStep,
  discreteNoiseRefusal,
} from './discreteGaussianRelease.js';
import type { LedgerLike } from './PolicyLedger.js';
import { ReleaseRefusedError } from './ReleaseRefusedError.js';

/** Where a mechanism finds its policy's noise sources and ledger (they are replaced on restore). */
export interface NoiseHost {
  /** The noise stream: the secure source, or in research mode the seeded stream. */
  noiseRng(): Rng;
  /** The secure source behind `noiseRng` (null in research mode), for the exact discrete sampler. */
  secureWords(): SecureRng | null;
  /** The policy's ledger. */
  ledger(): LedgerLike;
}

/**
 * The event of a release that costs nothing beyond what its ledger already holds: a node of a
 * tree level whose other nodes hold disjoint data (parallel composition within the level). It is
 * still recorded, so every release is counted.
 */
const PARALLEL_NODE: PrivacyEvent = zcdpEvent(0);

export class GaussianMechanism {
  private readonly who: string;
  private readonly host: NoiseHost;
  /** The policy's noise, calibrated when it was built. */
  readonly calibration: NoiseCalibration;
  /** Secure noise on the exact discrete sampler (false: continuous normals, e.g. Amp's). */
  private readonly discrete: boolean;
  /** The noisy value of the release in progress; written out only after the ledger recorded it. */
  private readonly scratch: Float64Array;
  /** A zero statistic, for releases whose exact sum the caller keeps (tree nodes). */
  private readonly zeros: Float64Array;
  private lastSensitivity = Number.NaN;
  private lastEvent: PrivacyEvent | null = null;

  /**
   * @param who the policy's display name, for messages.
   * @param n the most coordinates one release has.
   * @param discrete secure noise on the exact discrete sampler (default true).
   * Throws RangeError when the exact discrete sampler could not release n coordinates at this noise
   * scale (secure noise only): a policy refuses such a budget when it is built, not at its first release.
   */
  constructor(who: string, host: NoiseHost, calibration: NoiseCalibration, n: number, discrete = true) {
    this.who = who;
    this.host = host;
    this.calibration = calibration;
    this.discrete = discrete;
    this.scratch = new Float64Array(n);
    this.zeros = new Float64Array(n);
    if (host.secureWords() !== null && discrete) {
      const why = discreteNoiseRefusal(calibration.multiplier, n);
      if (why !== null) throw new RangeError(`${who}: ${why}`);
    }
  }

  /**
   * Releases stat[start..end) (L2 sensitivity `sensitivity`) into out[outStart ..): out receives
   * stat + N(0, sigma^2 I), sigma = calibration.sigma(sensitivity), and the ledger the event, with
   * (round, partition, label). `stat` is only read. Throws {@link ReleaseRefusedError}, with out and
   * the ledger unchanged, when the statistic cannot be released.
   */
  release(
    stat: Float64Array,
    start: number,
    end: number,
    sensitivity: number,
    out: Float64Array,
    outStart: number,
    round: number,
    partition: number,
    label: string,
  ): void {
    const n = end - start;
    const sc = this.scratch;
    if (!(n > 0 && n <= sc.length)) {
      throw new RangeError(`${this.who}: a release has 1 to ${sc.length} coordinates. Got ${n}.`);
    }
    for (let i = start; i < end; i++) {
      if (!Number.isFinite(stat[i]!)) {
        throw new ReleaseRefusedError(this.who, label, 'the statistic is not finite');
      }
    }
    const event = this.eventFor(sensitivity);
    const sigma = this.calibration.sigma(sensitivity);
    const secure = this.host.secureWords();
    if (secure !== null && this.discrete) {
      try {
        discreteGaussianRelease(stat, start, end, sensitivity, sigma, secure, sc, 0);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        throw new ReleaseRefusedError(this.who, label, e.message.replace(/^discreteGaussianRelease: /, ''));
      }
    } else {
      this.host.noiseRng().fillNormal(sc, 0, n);
      for (let i = 0; i < n; i++) sc[i] = stat[start + i]! + sigma * sc[i]!;
    }
    this.host.ledger().record(event, round, partition, label);
    for (let i = 0; i < n; i++) out[outStart + i] = sc[i]!;
  }

  /**
   * A release whose exact statistic the caller keeps itself (tree aggregation: JDP-LinUCB adds the
   * noise of the open nodes to its exact prefix sum, and the node's release is its sum plus this
   * noise): out[outStart .. outStart + n) receives N(0, sigma^2 I) at sensitivity `sensitivity`
   * (secure: the grid noise of the discrete release of a zero statistic). `costs` false records the
   * release as free (parallel composition with a node already counted, {@link PARALLEL_NODE}).
   */
  releaseNoise(
    out: Float64Array,
    outStart: number,
    n: number,
    sensitivity: number,
    costs: boolean,
    round: number,
    partition: number,
    label: string,
  ): void {
    const sc = this.scratch;
    if (!(n > 0 && n <= sc.length)) {
      throw new RangeError(`${this.who}: a release has 1 to ${sc.length} coordinates. Got ${n}.`);
    }
    const event = costs ? this.eventFor(sensitivity) : PARALLEL_NODE;
    const sigma = this.calibration.sigma(sensitivity);
    const secure = this.host.secureWords();
    if (secure !== null && this.discrete) {
      try {
        discreteGaussianRelease(this.zeros, 0, n, sensitivity, sigma, secure, sc, 0);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        throw new ReleaseRefusedError(this.who, label, e.message.replace(/^discreteGaussianRelease: /, ''));
      }
    } else {
      this.host.noiseRng().fillNormal(sc, 0, n);
      for (let i = 0; i < n; i++) sc[i] = sigma * sc[i]!;
    }
    this.host.ledger().record(event, round, partition, label);
    for (let i = 0; i < n; i++) out[outStart + i] = sc[i]!;
  }

  /**
   * Symmetric Gaussian noise (Z + Z^T) / sqrt(2), Z_ij ~ N(0, scale^2), on public data (JDP-LinUCB's
   * Gram block: features are public, so it costs nothing and is not recorded): a[i d + j] =
   * a[j d + i] for j <= i, drawn row by row over the lower triangle.
   */
  symmetricNoise(a: Float64Array, d: number, scale: number): void {
    const rng = this.host.noiseRng();
    for (let i = 0; i < d; i++) {
      for (let j = 0; j <= i; j++) {
        // off-diagonal N(0, s^2), diagonal N(0, 2 s^2)
        const g = rng.normal() * scale * (i === j ? Math.SQRT2 : 1);
        a[i * d + j] = g;
        a[j * d + i] = g;
      }
    }
  }

  /** Poisson subsampling: true with probability q, from the (secret) noise stream. */
  sample(q: number): boolean {
    return this.host.noiseRng().uniform() < q;
  }

  /**
   * The grid step of the discrete release of n coordinates of L2 sensitivity `sensitivity` with
   * secure noise, else 0 (research mode or a continuous mechanism). A mechanism that accumulates its
   * statistic itself (JDP-LinUCB's tree) rounds each contribution to it, so that the statistic,
   * every node and every prefix sum are exact grid points.
   */
  gridStep(sensitivity: number, n: number): number {
    return this.host.secureWords() === null || !this.discrete ? 0 : discreteGridStep(sensitivity, n);
  }

  /** The event of a release at `sensitivity` (the last one is reused: no allocation per release). */
  private eventFor(sensitivity: number): PrivacyEvent {
    if (sensitivity !== this.lastSensitivity || this.lastEvent === null) {
      this.lastEvent = this.calibration.event(sensitivity);
      this.lastSensitivity = sensitivity;
    }
    return this.lastEvent;
  }
}
