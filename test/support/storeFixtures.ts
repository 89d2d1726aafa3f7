// Fixtures of the store tests (SQLite and PostgreSQL): a model whose "snapshot" keeps the exact sum and count of
// the rewards released so far (so a test can check that every reward was counted once), one-arm
// decisions, and the stand-in for a policy's batch release on that snapshot.
import type { DecisionRow, ModelState, ReleaseInput, Store } from '../../src/store/index.js';

/** A decision with one arm of dimension 1, ready for Store.insertDecision. */
export function oneArmDecision(model: string, eventId: string, time = 10): DecisionRow {
  return {
    model,
    eventId,
    seq: 0,
    time,
    armIds: ['a'],
    features: new Float64Array([1]),
    dim: 1,
    chosen: 0,
    chosenFeatures: new Float64Array([1]),
    probabilities: [1],
    modelVersion: 0,
    rewardState: 'none',
    reward: null,
    rewardSource: null,
    release: null,
  };
}

/** The settings of the models {@link createSumModel} creates (a 60 s window, no default reward). */
export const SUM_MODEL_SETTINGS = {
  rewardWindowSeconds: 60,
  defaultReward: null,
  duplicateRule: 'first' as const,
  logRewards: false,
  logCandidates: true,
  probabilitySamples: 1,
  retainDecisionsDays: null,
};

/** A given reward of `eventId` in model `model` at `time`, not logged on the decision. */
export function givenReward(model: string, eventId: string, reward: number, time = 20) {
  return { model, eventId, reward, time, source: 'given' as const, logReward: false };
}

/** Creates model `name` (snapshot {sum: 0, rounds: 0}) with decisions e0 .. e<decisions - 1>. */
export async function createSumModel(
  store: Store,
  name: string,
  decisions: number,
  logRewards = false,
): Promise<void> {
  await store.createModel({
    name,
    policy: 'adaprivate-ts',
    options: { dim: 1 },
    settings: { ...SUM_MODEL_SETTINGS, logRewards },
    createdAt: 1,
    snapshot: JSON.stringify({ sum: 0, rounds: 0 }),
  });
  for (let i = 0; i < decisions; i++) await store.insertDecision(oneArmDecision(name, `e${i}`));
}

/** The release of `state.pending` on top of `state.snapshot` (JSON {sum, rounds}; '{}' counts as 0). */
export function sumRelease(state: ModelState): ReleaseInput {
  const prev = JSON.parse(state.snapshot ?? '{}') as { sum?: number; rounds?: number };
  const sum = (prev.sum ?? 0) + state.pending.reduce((s, p) => s + p.reward, 0);
  const rounds = (prev.rounds ?? 0) + state.pending.length;
  return {
    version: state.version + 1,
    snapshot: JSON.stringify({ sum, rounds }),
    spent: { releases: state.version + 1 },
    releases: 1,
    rounds,
  };
}

/** The reward of event `e<i>` in the replica tests: a fixed function of i. */
export function rewardOf(eventId: string): number {
  return (Number(eventId.slice(1)) % 101) / 100;
}
