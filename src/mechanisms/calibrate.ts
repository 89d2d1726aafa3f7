/**
 * Noise calibration for the mechanisms room: the one place where a noise scale is derived from a
 * privacy budget. A policy states its release plan (how many adaptive releases one record takes
 * part in, `compositions`, and the Poisson subsampling rate `q`) and the accountant that calibrates
 * it; it gets back a {@link NoiseCalibration} that gives the noise standard deviation of a release
 * for any L2 sensitivity (computed by the policy from public state at release time).
 *
 * Accountants:
 * - 'zcdp' (the paper's): rho from the budget (rho, or epsilon by the classic conversion), rho / m
 *   per release, sigma = Delta / sqrt(2 rho / m) (`sigmaForRho` of src/privacy); no subsampling.
 * - 'rdp': the smallest sigma whose RDP guarantee after m releases (subsampled at rate q) converts
 *   to at most epsilon on the order grid (`calibrateSigma` of src/privacy; one subsampled release:
 *   the paper's Amp calibration below); sigma = Delta x multiplier.
 * - 'exact': Gaussian DP and the exact privacy curve (one subsampled release: its closed-form
 *   curve; several: privacy loss distributions), with the proven margin of the discrete sampler when
 *   the noise is drawn by it (`calibrateGaussianNoise` of src/privacy).
 */
import {
  type AccountantName,
  type Conversion,
  calibrateGaussianNoise,
  gaussianEvent,
  type PrivacyEvent,
  sigmaForRho,
  subsampledGaussianEvent,
} from '../privacy/index.js';
import { budgetEpsilon, budgetRho, type PrivacyBudget } from './budget.js';

/** How the releases of one policy use a record: m adaptive releases, each subsampled at rate q. */
export interface ReleasePlan {
  /** Adaptive releases one record takes part in (sequential composition), a positive integer. */
  readonly compositions: number;
  /** Poisson subsampling rate in (0, 1]; 1 = none. */
  readonly q: number;
}

/** The noise of a policy's releases, as calibrated once when the policy is built. */
export interface NoiseCalibration {
  /** The accountant that calibrated it. */
  readonly accountant: AccountantName;
  /** Noise standard deviation at sensitivity 1 (the noise multiplier). */
  readonly multiplier: number;
  /** Poisson subsampling rate of each release (1 = none). */
  readonly q: number;
  /** The RDP order that met the target (RDP calibrations), else null. */
  readonly order: number | null;
  /** The noise distribution an exact calibration assumed ('discrete' otherwise). */
  readonly noise: 'discrete' | 'continuous';
  /** zCDP rho of one release (at any sensitivity: the noise follows it), 1 / (2 multiplier^2). */
  readonly rhoPerRelease: number;
  /** The noise standard deviation of a release of L2 sensitivity `sensitivity` (> 0, finite). */
  sigma(sensitivity: number): number;
  /** The ledger event of a release of L2 sensitivity `sensitivity`. */
  event(sensitivity: number): PrivacyEvent;
}

/** zCDP: sigma = Delta / sqrt(2 rho_release), exactly the expression the paper's policies used. */
class ZcdpCalibration implements NoiseCalibration {
  readonly accountant = 'zcdp' as const;
  readonly q = 1;
  readonly order = null;
  readonly noise = 'discrete' as const;
  readonly multiplier: number;
  readonly rhoPerRelease: number;
  constructor(rhoPerRelease: number) {
    this.rhoPerRelease = rhoPerRelease;
    this.multiplier = sigmaForRho(rhoPerRelease);
  }
  sigma(sensitivity: number): number {
    return sigmaForRho(this.rhoPerRelease, sensitivity);
  }
  event(sensitivity: number): PrivacyEvent {
    return gaussianEvent(sensitivity, this.sigma(sensitivity));
  }
}

/** A fixed noise multiplier: sigma = Delta x multiplier (sigma = multiplier at Delta = 1, exactly). */
class MultiplierCalibration implements NoiseCalibration {
  readonly accountant: AccountantName;
  readonly multiplier: number;
  readonly q: number;
  readonly order: number | null;
  readonly rhoPerRelease: number;
  readonly noise: 'discrete' | 'continuous';
  constructor(
    accountant: AccountantName,
    multiplier: number,
    q: number,
    order: number | null,
    noise: 'discrete' | 'continuous' = 'discrete',
  ) {
    if (!(multiplier > 0 && multiplier < Number.POSITIVE_INFINITY)) {
      throw new RangeError(
        `noise calibration: the multiplier must be positive and finite. Got ${multiplier}.`,
      );
    }
    this.accountant = accountant;
    this.multiplier = multiplier;
    this.q = q;
    this.order = order;
    this.noise = noise;
    this.rhoPerRelease = 1 / (2 * multiplier * multiplier);
  }
  sigma(sensitivity: number): number {
    if (!(sensitivity > 0 && sensitivity < Number.POSITIVE_INFINITY)) {
      throw new RangeError(`noise calibration: sensitivity must be positive and finite. Got ${sensitivity}.`);
    }
    return sensitivity === 1 ? this.multiplier : sensitivity * this.multiplier;
  }
  event(sensitivity: number): PrivacyEvent {
    if (this.q < 1) {
      // sigma = sensitivity x multiplier: the subsampled release's privacy depends on the multiplier
      // only (a user-level release of a unit's c rewards: sensitivity c, noise c x multiplier)
      if (!(sensitivity > 0 && sensitivity < Number.POSITIVE_INFINITY)) {
        throw new RangeError(
          `noise calibration: sensitivity must be positive and finite. Got ${sensitivity}.`,
        );
      }
      return subsampledGaussianEvent(this.q, this.multiplier);
    }
    return gaussianEvent(sensitivity, this.sigma(sensitivity));
  }
}

/** Options of a calibration. */
export interface CalibrationOptions {
  /** 'rdp': order grid, 'paper' or 'extended' (default). */
  readonly orders?: 'paper' | 'extended';
  /** 'rdp': RDP to (epsilon, delta) conversion, 'classic' (default) or 'improved'. */
  readonly conversion?: Conversion;
  /**
   * 'exact': the noise the releases draw, 'discrete' (default: the secure sampler, whose proven
   * margin over the continuous curve is included) or 'continuous' (Amp's float sampler).
   */
  readonly noise?: 'discrete' | 'continuous';
}

/**
 * How a policy's ledger accounts its releases under the exact accountant (null for the others: the
 * ledger's zCDP/RDP accounting): the noise distribution the calibration assumed.
 */
export function exactReport(calibration: NoiseCalibration): { noise: 'discrete' | 'continuous' } | null {
  return calibration.accountant === 'exact' ? { noise: calibration.noise } : null;
}

/**
 * The noise of a policy's releases for its budget, plan and accountant. `who` names the policy in
 * messages. Throws RangeError for a plan the accountant cannot calibrate (zCDP has no amplification
 * by subsampling), and UnreachablePrivacyTargetError when no noise meets the target.
 *
 * @example
 * calibrateGaussian('AdaPrivate-TS', { epsilon: 1, delta: 1e-5 }, { compositions: 1, q: 1 }, 'zcdp').multiplier; // ~4.90
 */
export function calibrateGaussian(
  who: string,
  budget: PrivacyBudget,
  plan: ReleasePlan,
  accountant: AccountantName,
  options: CalibrationOptions = {},
): NoiseCalibration {
  const m = plan.compositions;
  const q = plan.q;
  if (!Number.isSafeInteger(m) || m <= 0) {
    throw new RangeError(
      `${who}: the release plan needs a positive integer number of compositions. Got ${m}.`,
    );
  }
  if (!(q > 0 && q <= 1)) throw new RangeError(`${who}: the subsampling rate q must be in (0, 1]. Got ${q}.`);
  switch (accountant) {
    case 'zcdp': {
      if (q < 1) {
        throw new RangeError(
          `${who}: accountant 'zcdp' cannot calibrate a subsampled release (q = ${q}): zCDP has no amplification by subsampling. Use accountant 'rdp' or 'exact'.`,
        );
      }
      return new ZcdpCalibration(budgetRho(budget) / m);
    }
    case 'rdp': {
      // the one calibrator: for one subsampled release its 'rdp' path is the paper's Amp routine
      const c = calibrateGaussianNoise(
        { epsilon: budgetEpsilon(budget), delta: budget.delta },
        { sensitivity: 1, compositions: m, q },
        'rdp',
        { orders: options.orders ?? 'extended', conversion: options.conversion ?? 'classic' },
      );
      return new MultiplierCalibration('rdp', c.sigma, q, c.order);
    }
    case 'exact': {
      const noise = options.noise ?? 'discrete';
      const c = calibrateGaussianNoise(
        { epsilon: budgetEpsilon(budget), delta: budget.delta },
        { sensitivity: 1, compositions: m, q },
        'exact',
        { noise },
      );
      if (!(c.sigma > 0 && c.sigma < Number.POSITIVE_INFINITY)) {
        throw new RangeError(
          `${who}: the exact accountant found no finite noise scale for epsilon ${budgetEpsilon(budget)} (delta ${budget.delta}); use accountant 'zcdp' for such a budget.`,
        );
      }
      return new MultiplierCalibration('exact', c.sigma, q, null, noise);
    }
    default:
      throw new RangeError(
        `${who}: accountant must be one of 'exact', 'zcdp', 'rdp'. Got ${JSON.stringify(accountant)}.`,
      );
  }
}

/**
 * A calibration with a given noise multiplier (a mechanism whose noise scale comes from its own
 * analysis, e.g. JDP-LinUCB's tree, {@link jdpTreeVariance}), reported through `accountant`'s ledger.
 */
export function fixedCalibration(multiplier: number, accountant: AccountantName = 'zcdp'): NoiseCalibration {
  return new MultiplierCalibration(accountant, multiplier, 1, null);
}

/**
 * JDP-LinUCB's node noise variance (Shariff & Sheffet 2018 as in SPEC section 4): s^2 = 16 m L^4
 * ln(4/delta)^2 / epsilon^2 with L = sqrt(2), m tree levels. Not an accountant's calibration: the
 * ledger reports what these nodes actually cost (far less than epsilon, docs/policies.md).
 *
 * @example
 * Math.sqrt(jdpTreeVariance(1, 1e-5, 14)); // ~898
 */
export function jdpTreeVariance(epsilon: number, delta: number, levels: number): number {
  const L4 = 4; // L = sqrt(2)
  const lg = Math.log(4 / delta);
  return (16 * levels * L4 * lg * lg) / (epsilon * epsilon);
}

/** The paper's Amp calibration, now in src/privacy (re-exported for existing imports). */
export { calibrateSubsampledSigma } from '../privacy/index.js';
