/**
 * The registry of policies: for each id its display name, whether it is private, its family, the
 * options it accepts with their defaults, and the paper's tuning grid (SPEC section 4).
 */

/** How one option is validated (the rule is quoted in error messages). */
export type OptionRule =
  | { readonly kind: 'positiveInt' }
  | { readonly kind: 'seed' }
  | {
      readonly kind: 'number';
      readonly min: number;
      readonly max: number;
      readonly minOpen: boolean;
      readonly maxOpen: boolean;
    }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'vector' }
  | { readonly kind: 'boolean' };

/** Everything the runner and the CLI need to know about a policy before creating it. */
export interface PolicyInfo {
  readonly id: PolicyId;
  readonly displayName: string;
  readonly isPrivate: boolean;
  readonly family: 'ts' | 'ucb';
  /**
   * True when the privacy calibration depends on the horizon T (JDP-LinUCB: tree depth;
   * zCDP-Episodic: episode bound; DGS-LinUCB: per-step budget rho / T): such a policy refuses
   * round T + 1 with `HorizonExceededError`. The others (each reward in one release, or non-private)
   * go on and say so in `privacy().beyondHorizon`.
   */
  readonly boundedByHorizon: boolean;
  /**
   * True when `select` itself can release (DGS-LinUCB: a select after new data releases a noisy
   * estimate); elsewhere only learning (update, observe, finish) releases. A service serialises such
   * decisions with the learning (docs/serving-replicas.md).
   */
  readonly releasesAtSelect: boolean;
  /**
   * True when the policy accepts `privacyUnit: 'user'` (contribution bounds and a user-level
   * guarantee, docs/privacy.md "Privacy units"); false when it refuses it, and then
   * `userLevelRefusal` says why and what to use.
   */
  readonly supportsUserLevel: boolean;
  /** Why `privacyUnit: 'user'` is refused (null when it is supported or the policy is not private). */
  readonly userLevelRefusal: string | null;
  /**
   * The paper's accountant ('zcdp', or 'rdp' for AdaPrivate-TS-Amp) for a policy that takes the
   * `accountant` option, else null: the experiments default to it, and a stored configuration
   * without `accountant` was calibrated by it.
   */
  readonly paperAccountant: 'zcdp' | 'rdp' | null;
  /** The kind of guarantee: 'joint' (joint DP, JDP-LinUCB), 'standard' (other private policies) or 'none'. */
  readonly guarantee: 'joint' | 'standard' | 'none';
  /** SPEC section 4 grids (the paper's), e.g. `{ alpha: [0.1, 0.5, 1, 2] }`. */
  readonly tuningGrid: Readonly<Record<string, readonly number[]>>;
  /** Default value of every optional option the policy accepts (`undefined`-free). */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Every option name the policy accepts, required ones included. */
  readonly options: readonly string[];
}

const num = (
  min: number,
  max: number,
  minOpen: boolean,
  maxOpen: boolean,
): Extract<OptionRule, { readonly kind: 'number' }> => ({
  kind: 'number',
  min,
  max,
  minOpen,
  maxOpen,
});
const INF = Number.POSITIVE_INFINITY;

/**
 * The validation rule of every option name: the schema the option types are inferred from
 * (`OptionValue<'q'>` is `number`, `OptionValue<'orders'>` is `'paper' | 'extended'`).
 */
export const OPTION_RULES = {
  dim: { kind: 'positiveInt' },
  horizon: { kind: 'positiveInt' },
  seed: { kind: 'seed' },
  noiseSeed: { kind: 'seed' },
  epsilon: num(0, INF, true, true),
  delta: num(0, 1, true, true),
  rho: num(0, INF, true, true),
  lambda: num(0, INF, true, true),
  priorMean: { kind: 'vector' },
  alpha: num(0, INF, false, true),
  v: num(0, INF, false, true),
  batchSize: { kind: 'positiveInt' },
  q: num(0, 1, true, false),
  orders: { kind: 'enum', values: ['paper', 'extended'] },
  conversion: { kind: 'enum', values: ['classic', 'improved'] },
  accountant: { kind: 'enum', values: ['exact', 'zcdp', 'rdp'] },
  v0: num(0, INF, true, true),
  gamma: num(0, 1, true, false),
  adaptiveSetting: { kind: 'enum', values: ['default', 'tuned'] },
  lambda0: num(0, INF, true, true),
  cTrigger: num(1, INF, false, true),
  failureProb: num(0, 1, true, true),
  thetaBound: num(0, INF, false, true),
  maxPending: { kind: 'positiveInt' },
  privacyUnit: { kind: 'enum', values: ['event', 'user'] },
  contributionsPerRelease: { kind: 'positiveInt' },
  releasesPerEpoch: { kind: 'positiveInt' },
  epochDays: num(0, INF, true, true),
  epochRounds: { kind: 'positiveInt' },
  allowLargeDelta: { kind: 'boolean' },
} as const satisfies Readonly<Record<string, OptionRule>>;

/**
 * Options that change neither the privacy guarantee nor its calibration (exploration, the seed of the
 * policy's own randomness, the warm start, buffers, the dimension). Any other option (epsilon, delta,
 * rho, lambda, lambda0, q, horizon, batchSize, ... and options added later) is a privacy parameter:
 * a service refuses to change it on an existing model (`privacy_parameters_changed`).
 */
export const PRIVACY_NEUTRAL_OPTIONS: ReadonlySet<string> = new Set<keyof typeof OPTION_RULES>([
  'dim',
  'seed',
  'alpha',
  'v',
  'v0',
  'gamma',
  'adaptiveSetting',
  'priorMean',
  'maxPending',
]);

const REQUIRED = ['dim', 'horizon', 'seed'] as const;
const COMMON_DEFAULTS = { lambda: 1, maxPending: 64 } as const;
const PRIVATE_DEFAULTS = { delta: 1e-5 } as const;
/**
 * The accountant that calibrates a new private policy's noise (docs/policies.md, `accountant`).
 * The reproduction pins the paper's ('zcdp', Amp's 'rdp').
 */
export const DEFAULT_ACCOUNTANT = 'exact' as const;

/**
 * The privacy-unit options every private policy accepts (docs/privacy.md "Privacy units"). They have
 * no entry in `defaults` so that an event-level configuration stays as it was: `privacyUnit` absent
 * means 'event'; with 'user', `contributionsPerRelease` defaults to 1, `releasesPerEpoch` is required
 * and the epoch is `epochDays` (clock), `epochRounds` (simulations) or, with neither, the lifetime.
 */
export const UNIT_OPTIONS = [
  'privacyUnit',
  'contributionsPerRelease',
  'releasesPerEpoch',
  'epochDays',
  'epochRounds',
] as const;

/** Why the policies whose releases compose over all data refuse privacyUnit 'user'. */
const COMPOSES_OVER_ALL =
  "its releases compose sequentially over all the data (each reward enters many releases: a tree of partial sums, cumulative episode statistics or a per-step estimate), so its noise is calibrated per reward over the horizon and a per-release contribution bound does not limit what one user's rewards enter; use 'adaprivate-ts' (or -ucb, -ts-amp, -ts-adaptive), 'adac-oful-zcdp' or 'rarely-switching-zcdp' for a user-level guarantee, or keep privacyUnit 'event' and read the group-privacy figure in docs/privacy.md";

/**
 * Largest delta accepted without `allowLargeDelta: true`. A delta near 1/n (n protected records) lets
 * a mechanism publish a record outright with that probability, and a large delta silently cuts the
 * calibrated noise (delta = 0.5 cuts it about 3x at epsilon = 1).
 */
export const MAX_DELTA = 1e-3;

const UCB_ALPHA = [0.1, 0.5, 1, 2] as const;
const TS_V = [0.5, 1, 1.5, 2] as const;
const BATCH = [100, 300, 500, 1000] as const;

interface Entry {
  readonly displayName: string;
  readonly isPrivate: boolean;
  readonly family: 'ts' | 'ucb';
  readonly boundedByHorizon?: boolean;
  readonly releasesAtSelect?: boolean;
  /** Private policies: why privacyUnit 'user' is refused; absent when it is supported. */
  readonly noUserLevel?: string;
  /** The paper's accountant when it is not 'zcdp' (policies with the `accountant` option). */
  readonly paperAccountant?: 'rdp';
  /** Joint DP (the guarantee covers the other users' view of the actions), instead of standard DP. */
  readonly jointDp?: true;
  readonly grid: Readonly<Record<string, readonly number[]>>;
  /** Policy-specific defaults (common and private ones are added). */
  readonly own: Readonly<Record<string, unknown>>;
  /** Options without a default that the policy also accepts (besides the common ones). */
  readonly optionalNoDefault?: readonly string[];
}

/**
 * One schema per policy: display name, privacy, family, the options it accepts beyond the common
 * ones (`own`: with their defaults; `optionalNoDefault`: without), and the paper's tuning grid.
 * `PolicyOptionsFor<id>` and `PolicyConfigFor<id>` are inferred from this table.
 */
export const POLICY_SCHEMAS = {
  'adaprivate-ts': {
    displayName: 'AdaPrivate-TS',
    isPrivate: true,
    family: 'ts',
    grid: { v: TS_V, batchSize: BATCH },
    own: { v: 1, batchSize: 300, accountant: DEFAULT_ACCOUNTANT },
  },
  'adaprivate-ucb': {
    displayName: 'AdaPrivate-UCB',
    isPrivate: true,
    family: 'ucb',
    grid: { alpha: UCB_ALPHA, batchSize: BATCH },
    own: { alpha: 1, batchSize: 300, accountant: DEFAULT_ACCOUNTANT },
  },
  'adaprivate-ts-amp': {
    paperAccountant: 'rdp',
    displayName: 'AdaPrivate-TS-Amp',
    isPrivate: true,
    family: 'ts',
    grid: { q: [0.1, 0.3, 0.5, 0.7], v: TS_V, batchSize: BATCH },
    own: {
      v: 1,
      batchSize: 300,
      q: 0.3,
      orders: 'extended',
      conversion: 'classic',
      accountant: DEFAULT_ACCOUNTANT,
    },
  },
  'adaprivate-ts-adaptive': {
    displayName: 'AdaPrivate-TS-Adaptive',
    isPrivate: true,
    family: 'ts',
    grid: { v0: [1, 1.5, 2], gamma: [0.9, 0.95, 0.99], batchSize: BATCH },
    own: {
      v0: 1.5,
      gamma: 0.95,
      batchSize: 300,
      adaptiveSetting: 'default',
      accountant: DEFAULT_ACCOUNTANT,
    },
    optionalNoDefault: ['lambda0'],
  },
  linucb: {
    displayName: 'LinUCB',
    isPrivate: false,
    family: 'ucb',
    grid: { alpha: UCB_ALPHA },
    own: { alpha: 1 },
  },
  lints: {
    displayName: 'LinTS',
    isPrivate: false,
    family: 'ts',
    grid: { v: TS_V },
    own: { v: 1 },
  },
  'jdp-linucb': {
    jointDp: true,
    noUserLevel: COMPOSES_OVER_ALL,
    boundedByHorizon: true,
    displayName: 'JDP-LinUCB',
    isPrivate: true,
    family: 'ucb',
    grid: { alpha: UCB_ALPHA },
    own: { alpha: 1, failureProb: 0.05, thetaBound: 1 },
  },
  'zcdp-episodic': {
    noUserLevel: COMPOSES_OVER_ALL,
    boundedByHorizon: true,
    displayName: 'zCDP-Episodic',
    isPrivate: true,
    family: 'ucb',
    grid: { cTrigger: [1, 2, 4], alpha: UCB_ALPHA },
    own: { alpha: 1, cTrigger: 2, accountant: DEFAULT_ACCOUNTANT },
  },
  'adac-oful-zcdp': {
    displayName: 'AdaC-OFUL-zCDP',
    isPrivate: true,
    family: 'ucb',
    grid: { alpha: UCB_ALPHA },
    own: { alpha: 1, cTrigger: 2, accountant: DEFAULT_ACCOUNTANT },
  },
  'rarely-switching-zcdp': {
    displayName: 'RarelySwitching-zCDP',
    isPrivate: true,
    family: 'ucb',
    grid: { alpha: UCB_ALPHA },
    own: { alpha: 1, cTrigger: 2, accountant: DEFAULT_ACCOUNTANT },
  },
  'dgs-linucb': {
    noUserLevel: COMPOSES_OVER_ALL,
    boundedByHorizon: true,
    releasesAtSelect: true,
    displayName: 'DGS-LinUCB',
    isPrivate: true,
    family: 'ucb',
    grid: { alpha: UCB_ALPHA },
    own: { alpha: 1, accountant: DEFAULT_ACCOUNTANT },
  },
} as const satisfies Readonly<Record<string, Entry>>;

/** Every registered policy id: the keys of {@link POLICY_SCHEMAS} (a new entry there is a new id). */
export type PolicyId = keyof typeof POLICY_SCHEMAS;

/** Every policy id, in the order the docs and tables list them. */
export const policyIds: readonly PolicyId[] = Object.freeze(Object.keys(POLICY_SCHEMAS).filter(isPolicyId));

const cache = new Map<PolicyId, PolicyInfo>();

/**
 * The registry entry of a policy.
 *
 * @example
 * policyInfo('adaprivate-ts').defaults.batchSize; // returns 300
 */
export function policyInfo(id: PolicyId): PolicyInfo {
  const hit = cache.get(id);
  if (hit !== undefined) return hit;
  const e: Entry | undefined = Object.hasOwn(POLICY_SCHEMAS, id) ? POLICY_SCHEMAS[id] : undefined;
  if (e === undefined) {
    throw new RangeError(
      `policyInfo: unknown policy id ${JSON.stringify(id)}. Known ids: ${policyIds.join(', ')}.`,
    );
  }
  const defaults = Object.freeze({ ...COMMON_DEFAULTS, ...(e.isPrivate ? PRIVATE_DEFAULTS : {}), ...e.own });
  const options = Object.freeze([
    ...REQUIRED,
    ...Object.keys(defaults),
    'priorMean',
    ...(e.isPrivate ? ['epsilon', 'rho', 'noiseSeed', 'allowLargeDelta', ...UNIT_OPTIONS] : []),
    ...(e.optionalNoDefault ?? []),
  ]);
  const grid: Record<string, readonly number[]> = {};
  for (const [k, vals] of Object.entries(e.grid)) grid[k] = Object.freeze([...vals]);
  const info: PolicyInfo = Object.freeze({
    id,
    displayName: e.displayName,
    isPrivate: e.isPrivate,
    family: e.family,
    boundedByHorizon: e.boundedByHorizon === true,
    releasesAtSelect: e.releasesAtSelect === true,
    supportsUserLevel: e.isPrivate && e.noUserLevel === undefined,
    userLevelRefusal: e.isPrivate ? (e.noUserLevel ?? null) : null,
    paperAccountant: options.includes('accountant') ? (e.paperAccountant ?? 'zcdp') : null,
    guarantee: !e.isPrivate ? 'none' : e.jointDp === true ? 'joint' : 'standard',
    tuningGrid: Object.freeze(grid),
    defaults,
    options,
  });
  cache.set(id, info);
  return info;
}

/**
 * The paper's accountant of a policy that takes the `accountant` option ('rdp' for
 * AdaPrivate-TS-Amp, else 'zcdp'), or undefined. The experiments default to it, and a snapshot or
 * stored model whose configuration has no `accountant` (written before the option existed) was
 * calibrated by it.
 */
export function paperAccountant(id: PolicyId): 'zcdp' | 'rdp' | undefined {
  return policyInfo(id).paperAccountant ?? undefined;
}

/** True when `name` is an option of some policy (a key of {@link OPTION_RULES}). */
export function isOptionName(name: string): name is keyof typeof OPTION_RULES {
  return Object.hasOwn(OPTION_RULES, name);
}

/** True when `id` names a registered policy (for CLI validation). */
export function isPolicyId(id: string): id is PolicyId {
  return Object.hasOwn(POLICY_SCHEMAS, id);
}
