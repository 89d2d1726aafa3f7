/**
 * The answers of the status and ledger routes, built the same way by both runtimes
 * ({@link ModelRuntime} on one server, {@link ReplicaRuntime} on replicas) from what each knows: the
 * policy whose ledger gives the guarantee, the model's version and learned rounds, and the store's
 * counts and ledger rows.
 */
import type { Policy } from '../policies/index.js';
import type { LedgerRow, ModelCounts, ModelRow } from '../store/index.js';
import type { LedgerResponse, ModelStatus, PrivacyView } from './apiTypes.js';

/** The guarantee in a policy's ledger, as the API shows it. */
export function privacyView(policy: Policy): PrivacyView {
  const s = policy.privacy();
  return {
    epsilon: s.epsilon,
    delta: s.delta,
    rho: s.rho,
    releases: s.releases,
    composition: s.composition,
    conversion: s.conversion,
    noise: s.noise ?? 'none',
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
    privacy: privacyView(policy),
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
export function ledgerResponse(row: ModelRow, rows: readonly LedgerRow[], policy: Policy): LedgerResponse {
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
    privacy: privacyView(policy),
  };
}
