/**
 * The answers of the status and ledger routes, built the same way by both runtimes
 * ({@link ModelRuntime} on one server, {@link ReplicaRuntime} on replicas) from what each knows: the
 * policy whose ledger gives the guarantee, the model's version and learned rounds, and the store's
 * counts and ledger rows.
 */
import type { Policy } from '../policies/index.js';
import type { LedgerRow, ModelCounts, ModelRow, UnitTotals } from '../store/index.js';
import type { LedgerResponse, ModelStatus, PrivacyView } from './contract.js';

/**
 * The guarantee in a policy's ledger, as the API shows it, with what it protects. `totals`: a
 * user-level model's dropped counts from the database (the policy only knows those since its
 * last snapshot).
 */
export function privacyView(policy: Policy, totals: UnitTotals | null = null): PrivacyView {
  const s = policy.privacy();
  const base = {
    epsilon: s.epsilon,
    delta: s.delta,
    rho: s.rho,
    releases: s.releases,
    composition: s.composition,
    conversion: s.conversion,
    noise: s.noise ?? 'none',
    unit: s.unit ?? 'event',
    statement: s.statement ?? '',
  };
  if (s.unit !== 'user') return base;
  const dropped =
    totals === null
      ? s.dropped
      : {
          perRelease: totals.droppedPerRelease,
          perEpoch: totals.droppedPerEpoch,
          total: totals.droppedPerRelease + totals.droppedPerEpoch,
        };
  const statement =
    totals === null || dropped === undefined
      ? base.statement
      : base.statement.replace(
          /; \d+ of \d+ rewards? dropped by the bounds \(\d+ per release, \d+ per epoch\)/,
          `; ${dropped.total} reward${dropped.total === 1 ? '' : 's'} dropped by the bounds (${dropped.perRelease} per release, ${dropped.perEpoch} per epoch)`,
        );
  return {
    ...base,
    statement,
    ...(s.bounds !== undefined ? { bounds: s.bounds } : {}),
    ...(s.epoch !== undefined ? { epoch: s.epoch } : {}),
    ...(s.perEpoch !== undefined ? { perEpoch: s.perEpoch } : {}),
    ...(s.cumulative !== undefined ? { cumulative: s.cumulative } : {}),
    ...(dropped !== undefined ? { dropped } : {}),
    ...(s.eventLevel !== undefined ? { eventLevel: s.eventLevel } : {}),
  };
}

/** What {@link modelStatus} needs beyond the model row and the policy. */
export interface StatusInput {
  readonly version: number;
  /** Rounds learned (rewards observed). */
  readonly rounds: number;
  readonly counts: ModelCounts;
  readonly isPrivate: boolean;
  /** The guarantee is calibrated for `horizon` learned rounds (the model stops learning there). */
  readonly bounded: boolean;
  readonly horizon: number;
  readonly learning: boolean;
  readonly clippedFeatures: number;
  /** User-level models: the dropped counts from the database (null otherwise). */
  readonly unitTotals?: UnitTotals | null;
}

/** The status of model `row` whose guarantee is `policy`'s ledger. */
export function modelStatus(row: ModelRow, policy: Policy, s: StatusInput): ModelStatus {
  const cfg = policy.config as Readonly<Record<string, unknown>>;
  const roundsLeft = s.bounded ? Math.max(0, s.horizon - s.rounds) : null;
  let note: string;
  if (!s.isPrivate) note = 'non-private policy: no privacy guarantee.';
  else if (s.bounded) {
    note = s.learning
      ? `the guarantee is calibrated for horizon = ${s.horizon} learned rounds; ${roundsLeft} left.`
      : `horizon of ${s.horizon} rounds used: the model decides from its last release and learns no more (rewards get 409 horizon_exhausted).`;
  } else if (policy.privacy().unit === 'user') {
    // user-level: a unit's rewards enter up to m releases per epoch, and the epochs compose
    note =
      "a unit's rewards enter at most m releases per epoch: the per-epoch guarantee stays within the target, and the cumulative one grows with each new epoch (composition across epochs).";
  } else {
    note =
      'each reward enters one release (parallel composition): the guarantee does not grow with more rounds.';
  }
  return {
    name: row.name,
    policy: row.policy,
    options: row.options,
    settings: row.settings,
    createdAt: new Date(row.createdAt).toISOString(),
    modelVersion: s.version,
    rounds: s.rounds,
    decisions: s.counts.decisions,
    pendingRewards: s.counts.pendingRewards,
    releasedRewards: s.counts.releasedRewards,
    defaultRewards: s.counts.defaultRewards,
    batchesReleased: s.version,
    private: s.isPrivate,
    guarantee: s.isPrivate
      ? 'differential privacy of the rewards: the amount spent so far is privacy (epsilon, delta), computed from the ledger of releases.'
      : `none: '${row.policy}' is not a private policy. Its rewards are learned without noise, and nothing it answers (decisions, probabilities, status, export) is protected by differential privacy.`,
    privacy: privacyView(policy, s.unitTotals ?? null),
    budget: {
      boundedByHorizon: s.bounded,
      horizon: s.horizon,
      roundsLeft,
      target: s.isPrivate
        ? {
            epsilon: typeof cfg.epsilon === 'number' ? cfg.epsilon : null,
            delta: typeof cfg.delta === 'number' ? cfg.delta : null,
          }
        : null,
      learning: s.learning,
      note,
    },
    clippedFeatures: s.clippedFeatures,
  };
}

/** The ledger of model `row`: its committed releases, and the guarantee from `policy`'s ledger. */
export function ledgerResponse(
  row: ModelRow,
  rows: readonly LedgerRow[],
  policy: Policy,
  totals: UnitTotals | null = null,
): LedgerResponse {
  return {
    name: row.name,
    releases: rows.map((r) => ({
      version: r.version,
      time: new Date(r.time).toISOString(),
      rewards: r.rewards,
      releases: r.releases,
      rounds: r.rounds,
      spent: r.spent,
    })),
    privacy: privacyView(policy, totals),
  };
}
