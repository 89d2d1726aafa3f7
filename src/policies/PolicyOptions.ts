/**
 * The options every policy is built from. `createPolicy(id, options)` validates them against the
 * policy's option table (`policyInfo(id)`), fills in the defaults and keeps a frozen copy as
 * `policy.config`. Options a policy does not use are refused (the message names the option and the
 * policy), so a typo never silently falls back to a default.
 */
export interface PolicyOptions {
  /** Feature dimension d: positive integer, required. */
  readonly dim: number;
  /** Planned number of rounds T: positive integer, required (sets tree depth, episode bounds, per-step budgets). */
  readonly horizon: number;
  /** Seed of the exploration stream ('policy', e.g. Thompson samples): non-negative safe integer, required. It never determines privacy noise. */
  readonly seed: number;
  /**
   * Research mode only (private policies): seed of a reproducible privacy-noise stream
   * (`createRng(noiseSeed, 'privacy-noise')`), non-negative safe integer. Default: none, and the noise
   * comes from the platform's cryptographically secure source (`privacy().noise` says which). Anyone
   * who knows a noiseSeed can subtract the noise from the released statistics: never use one on real
   * users' data.
   */
  readonly noiseSeed?: number;
  /** Privacy budget epsilon > 0 (private policies: this or `rho` is required). */
  readonly epsilon?: number;
  /** Privacy parameter delta in (0, 1); default 1e-5 (private policies only). */
  readonly delta?: number;
  /** zCDP budget rho > 0, an alternative to `epsilon` (zCDP-calibrated private policies only). */
  readonly rho?: number;
  /** Ridge regulariser lambda > 0; default 1. */
  readonly lambda?: number;
  /** Prior mean theta_0 (warm start), d finite numbers; default zeros (cold start). */
  readonly priorMean?: readonly number[];
  /** UCB exploration multiplier alpha >= 0; default 1. */
  readonly alpha?: number;
  /** TS exploration scale v >= 0; default 1. */
  readonly v?: number;
  /** Batch length B (rounds between releases): positive integer; default 300. */
  readonly batchSize?: number;
  /** Poisson subsampling rate q in (0, 1] (AdaPrivate-TS-Amp); default 0.3. */
  readonly q?: number;
  /** RDP order grid of the amplified calibration: 'paper' {2..6,8,16,32,64} or 'extended' (default). */
  readonly orders?: 'paper' | 'extended';
  /** RDP to (eps, delta) conversion: 'classic' (the paper's, default) or 'improved'. */
  readonly conversion?: 'classic' | 'improved';
  /** Initial TS scale of the adaptive decay v_1 = v0, v0 > 0; default 1.5 (setting 'default'). */
  readonly v0?: number;
  /** Decay factor gamma in (0, 1] of v_k = v0 gamma^(k-1); default 0.95. */
  readonly gamma?: number;
  /** 'default' (v0 as given) or 'tuned' (v0 = 1 + sigma / (d sqrt(lambda0))); default 'default'. */
  readonly adaptiveSetting?: 'default' | 'tuned';
  /** Minimum-eigenvalue growth rate lambda_0 > 0 for the tuned setting; default: estimated (docs/policies.md). */
  readonly lambda0?: number;
  /** Episode switch threshold det(V_t) >= cTrigger det(V_last), cTrigger >= 1; default 2. */
  readonly cTrigger?: number;
  /** Failure probability alpha_c in (0, 1) of JDP-LinUCB's regulariser and width; default 0.05. */
  readonly failureProb?: number;
  /** Bound S >= 0 on ||theta*||_2 used in JDP-LinUCB's width; default 1. */
  readonly thetaBound?: number;
  /** Capacity of the delayed-feedback ticket table: positive integer; default 64. */
  readonly maxPending?: number;
}

/** The validated, frozen configuration of a policy (every option resolved to a value). */
export type PolicyConfig = Readonly<Record<string, unknown>>;
