/**
 * The options of each policy, typed per policy id and inferred from the schemas in policyInfo.ts
 * (`OPTION_RULES` gives each option's value type, `POLICY_SCHEMAS` which options a policy accepts
 * and which have defaults). `createPolicy(id, options)` takes `PolicyOptionsFor<id>`: only that
 * policy's options, the required ones required (dim, horizon, seed, and for private policies
 * exactly one of epsilon or rho), so `q` on adaprivate-ts or `epsilon` on linucb is a compile
 * error. At run time the same schemas validate the options (messages name the policy, the option,
 * the value and the rule) and produce the frozen `PolicyConfigFor<id>`.
 */
import type { OPTION_RULES, POLICY_SCHEMAS, PolicyId } from './policyInfo.js';

type Rules = typeof OPTION_RULES;
/** Every option name of any policy. */
export type OptionName = keyof Rules;
type ValueOfRule<R> = R extends { readonly kind: 'enum'; readonly values: readonly (infer V)[] }
  ? V
  : R extends { readonly kind: 'vector' }
    ? readonly number[]
    : R extends { readonly kind: 'boolean' }
      ? boolean
      : number;
/** The value type of option `K`, inferred from its validation rule. */
export type OptionValue<K extends OptionName> = ValueOfRule<Rules[K]>;

/** Every option, documented once (property types come from the rules; each policy picks its own). */
export interface OptionDocs {
  /** Feature dimension d: positive integer, required. */
  readonly dim: OptionValue<'dim'>;
  /** Planned number of rounds T: positive integer, required (sets tree depth, episode bounds, per-step budgets). */
  readonly horizon: OptionValue<'horizon'>;
  /** Seed of the exploration stream ('policy', e.g. Thompson samples): non-negative safe integer, required. It never determines privacy noise. */
  readonly seed: OptionValue<'seed'>;
  /**
   * Research mode only (private policies): seed of a reproducible privacy-noise stream
   * (`createRng(noiseSeed, 'privacy-noise')`), non-negative safe integer. Default: none, and the noise
   * comes from the platform's cryptographically secure source (`privacy().noise` says which). Anyone
   * who knows a noiseSeed can subtract the noise from the released statistics: never use one on real
   * users' data.
   */
  readonly noiseSeed: OptionValue<'noiseSeed'>;
  /** Privacy budget epsilon > 0 (private policies: this or `rho` is required). */
  readonly epsilon: OptionValue<'epsilon'>;
  /**
   * Privacy parameter delta in (0, 1e-3] (`MAX_DELTA`; up to 1 with `allowLargeDelta`); default 1e-5
   * (private policies only). Keep it well below 1/n for n protected records (rewards or users).
   */
  readonly delta: OptionValue<'delta'>;
  /**
   * Accept a delta above 1e-3 (private policies only; default false). A large delta cuts the noise
   * (delta = 0.5 about 3x at epsilon = 1) and allows publishing a record outright with probability delta.
   */
  readonly allowLargeDelta: OptionValue<'allowLargeDelta'>;
  /** zCDP budget rho > 0, an alternative to `epsilon` (private policies only). */
  readonly rho: OptionValue<'rho'>;
  /** Ridge regulariser lambda > 0; default 1. */
  readonly lambda: OptionValue<'lambda'>;
  /** Prior mean theta_0 (warm start), d finite numbers; default zeros (cold start). */
  readonly priorMean: OptionValue<'priorMean'>;
  /** UCB exploration multiplier alpha >= 0; default 1. */
  readonly alpha: OptionValue<'alpha'>;
  /** TS exploration scale v >= 0; default 1. */
  readonly v: OptionValue<'v'>;
  /** Batch length B (rounds between releases): positive integer; default 300. */
  readonly batchSize: OptionValue<'batchSize'>;
  /** Poisson subsampling rate q in (0, 1] (AdaPrivate-TS-Amp); default 0.3. */
  readonly q: OptionValue<'q'>;
  /** RDP order grid of the amplified calibration: 'paper' {2..6,8,16,32,64} or 'extended' (default). */
  readonly orders: OptionValue<'orders'>;
  /** RDP to (eps, delta) conversion: 'classic' (the paper's, default) or 'improved'. */
  readonly conversion: OptionValue<'conversion'>;
  /**
   * The accountant that calibrates the noise to (epsilon, delta) (private policies except
   * JDP-LinUCB, whose tree noise follows Shariff & Sheffet): 'zcdp' (the paper's: rho / m per
   * release, classic conversion), 'rdp' (Renyi DP on the order grid; AdaPrivate-TS-Amp's paper
   * calibration) or 'exact' (the exact Gaussian privacy curve). Default: `DEFAULT_ACCOUNTANT`.
   */
  readonly accountant: OptionValue<'accountant'>;
  /** Initial TS scale of the adaptive decay v_1 = v0, v0 > 0; default 1.5 (setting 'default'). */
  readonly v0: OptionValue<'v0'>;
  /** Decay factor gamma in (0, 1] of v_k = v0 gamma^(k-1); default 0.95. */
  readonly gamma: OptionValue<'gamma'>;
  /** 'default' (v0 as given) or 'tuned' (v0 = 1 + sigma / (d sqrt(lambda0))); default 'default'. */
  readonly adaptiveSetting: OptionValue<'adaptiveSetting'>;
  /** Minimum-eigenvalue growth rate lambda_0 > 0 for the tuned setting; default: estimated (docs/policies.md). */
  readonly lambda0: OptionValue<'lambda0'>;
  /** Episode switch threshold det(V_t) >= cTrigger det(V_last), cTrigger >= 1; default 2. */
  readonly cTrigger: OptionValue<'cTrigger'>;
  /** Failure probability alpha_c in (0, 1) of JDP-LinUCB's regulariser and width; default 0.05. */
  readonly failureProb: OptionValue<'failureProb'>;
  /** Bound S >= 0 on ||theta*||_2 used in JDP-LinUCB's width; default 1. */
  readonly thetaBound: OptionValue<'thetaBound'>;
  /** Capacity of the delayed-feedback ticket table: positive integer; default 64. */
  readonly maxPending: OptionValue<'maxPending'>;
  /**
   * What the guarantee protects (private policies): 'event' (default when absent: one reward) or
   * 'user' (every reward of one unit, a user or device id passed to update/observe; the contribution
   * bounds below are enforced and the noise is calibrated for them). 'user' is refused by the
   * policies whose releases compose over all data (`policyInfo(id).userLevelRefusal` says why).
   */
  readonly privacyUnit: OptionValue<'privacyUnit'>;
  /** privacyUnit 'user': at most c rewards of one unit enter one release (more are dropped); positive integer, default 1. */
  readonly contributionsPerRelease: OptionValue<'contributionsPerRelease'>;
  /** privacyUnit 'user': at most m releases a unit takes part in per epoch (more are dropped); positive integer, required. */
  readonly releasesPerEpoch: OptionValue<'releasesPerEpoch'>;
  /**
   * privacyUnit 'user': epoch length in days (positive number) on the policy's clock (`Date.now`
   * unless `createPolicy(id, options, { clock })`), epochs aligned to 1970-01-01T00:00Z. Default:
   * none (with `epochRounds` also absent, one epoch: the lifetime).
   */
  readonly epochDays: OptionValue<'epochDays'>;
  /**
   * privacyUnit 'user': epoch length in rewards offered (kept or dropped), a positive integer;
   * epoch k holds offered rewards k*epochRounds .. (k+1)*epochRounds - 1. Not together with
   * `epochDays`. Also served by one server (SQLite), where a round is a reward the service
   * acknowledges (given or default, kept or dropped; docs/serving.md). Default: none.
   */
  readonly epochRounds: OptionValue<'epochRounds'>;
}

/** The privacy-unit options (private policies). */
type UnitKeys = 'privacyUnit' | 'contributionsPerRelease' | 'releasesPerEpoch' | 'epochDays' | 'epochRounds';

type Schemas = typeof POLICY_SCHEMAS;
/** Policy-specific options with a default. */
type DefaultKeys<I extends PolicyId> = keyof Schemas[I]['own'] & OptionName;
/** Policy-specific options without a default. */
type NoDefaultKeys<I extends PolicyId> = Schemas[I] extends {
  readonly optionalNoDefault: readonly (infer K)[];
}
  ? K & OptionName
  : never;
type IsPrivate<I extends PolicyId> = Schemas[I]['isPrivate'];

type CommonRequired = Pick<OptionDocs, 'dim' | 'horizon' | 'seed'>;
type CommonOptional = Partial<Pick<OptionDocs, 'lambda' | 'priorMean' | 'maxPending'>>;
/** Private policies: delta and noiseSeed optional, exactly one of epsilon or rho. */
type BudgetOptions = Partial<Pick<OptionDocs, 'delta' | 'noiseSeed' | 'allowLargeDelta' | UnitKeys>> &
  (
    | (Pick<OptionDocs, 'epsilon'> & { readonly rho?: never })
    | (Pick<OptionDocs, 'rho'> & { readonly epsilon?: never })
  );

/**
 * The options `createPolicy(id, ...)` accepts for policy `I`.
 *
 * @example
 * const o: PolicyOptionsFor<'adaprivate-ts'> = { dim: 20, horizon: 10_000, seed: 1, epsilon: 1, batchSize: 300 };
 */
export type PolicyOptionsFor<I extends PolicyId> = I extends PolicyId
  ? CommonRequired &
      CommonOptional &
      Partial<Pick<OptionDocs, DefaultKeys<I> | NoDefaultKeys<I>>> &
      (IsPrivate<I> extends true ? BudgetOptions : unknown)
  : never;

/** Options of any policy (a union over the ids; for callers that pick the id at run time). */
export type PolicyOptions = PolicyOptionsFor<PolicyId>;

type CommonConfig = Pick<OptionDocs, 'dim' | 'horizon' | 'seed' | 'lambda' | 'priorMean' | 'maxPending'>;
/** The resolved budget of a private policy: delta, noiseSeed when given, and exactly one of epsilon or rho. */
export type BudgetConfig = Pick<OptionDocs, 'delta'> &
  Partial<Pick<OptionDocs, 'noiseSeed' | UnitKeys>> &
  (
    | (Pick<OptionDocs, 'epsilon'> & { readonly rho?: never })
    | (Pick<OptionDocs, 'rho'> & { readonly epsilon?: never })
  );

/**
 * The validated, frozen configuration of policy `I`: every option with a default is present.
 *
 * @example
 * createPolicy('adaprivate-ts', { dim: 2, horizon: 10, seed: 1, epsilon: 1 }).config.batchSize; // returns 300
 */
export type PolicyConfigFor<I extends PolicyId> = I extends PolicyId
  ? CommonConfig &
      Pick<OptionDocs, DefaultKeys<I>> &
      Partial<Pick<OptionDocs, NoDefaultKeys<I>>> &
      (IsPrivate<I> extends true ? BudgetConfig : unknown)
  : never;

/** The configuration of any policy (a union over the ids); common fields (dim, horizon, ...) are readable. */
export type PolicyConfig = PolicyConfigFor<PolicyId>;

/** `PolicyConfigFor` of every id, for correlated lookups (`builders[id](config)`). */
export type PolicyConfigMap = { readonly [I in PolicyId]: PolicyConfigFor<I> };
