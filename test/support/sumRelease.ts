// A stand-in for a policy's batch release in store tests: the "snapshot" keeps the exact sum and
// count of the rewards released so far, so a test can check that every reward was counted once.
import type { ModelState, ReleaseInput } from '../../src/store/index.js';

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
