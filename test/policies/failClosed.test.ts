// Fail-closed releases (issue 24 item 2), for every private policy: a release that is refused (the
// exact sampler cannot release the statistic) or that fails midway (the secure noise source
// fails) leaves nothing unreleased readable. Two policies that saw the same features but different
// rewards must then answer `scores` identically (no reward-dependent value was published), their
// ledgers must be unchanged (0 releases, as built), and the error must carry no value of the
// statistic. On the code before the mechanisms room, DGS-LinUCB and zCDP-Episodic wrote the exact
// estimate into their released slot before adding noise: both tests failed for them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ReleaseRefusedError } from '../../src/mechanisms/index.js';
import { createPolicy, type Policy, type PolicyId, policyIds, policyInfo } from '../../src/policies/index.js';

const PRIVATE_IDS = policyIds.filter((id) => policyInfo(id).isPrivate);
const D = 2;
const K = 2;
const PROBE = Float64Array.of(0.6, 0.8, 1, 0, 0, 1);

/** Round t's two unit arms (public features; the same in both runs of a comparison). */
function arms(t: number): Float64Array {
  const a = (t * 0.7) % Math.PI;
  return Float64Array.of(Math.cos(a), Math.sin(a), Math.sin(a), Math.cos(a));
}

function options(id: PolicyId, extra: Record<string, unknown> = {}): never {
  const o: Record<string, unknown> = { dim: D, horizon: 64, seed: 3, epsilon: 1, ...extra };
  if ('batchSize' in policyInfo(id).defaults) o.batchSize = 4;
  if (id === 'adaprivate-ts-amp') o.q = 0.5;
  return o as never;
}

/** Runs `fn` while the platform's secure random source fails (every call throws). */
function withFailingEntropy<T>(fn: () => T): T {
  const c = globalThis.crypto;
  Object.defineProperty(c, 'getRandomValues', {
    configurable: true,
    writable: true,
    value: () => {
      throw new Error('test: the entropy source failed');
    },
  });
  try {
    return fn();
  } finally {
    delete (c as { getRandomValues?: unknown }).getRandomValues;
  }
}

interface Outcome {
  readonly error: unknown;
  readonly scores: Float64Array;
  readonly ledger: string;
  readonly releases: number;
}

function ledgerOf(p: Policy): string {
  return JSON.stringify((p.snapshot().state as { base: { ledger: unknown } }).base.ledger);
}

/** Plays rounds with a constant reward until a call throws (at most 40 rounds). */
function playUntilRefused(p: Policy, reward: number): Outcome {
  let error: unknown;
  for (let t = 0; t < 40 && error === undefined; t++) {
    try {
      p.select(arms(t), K);
      p.update(reward);
    } catch (e) {
      error = e;
    }
  }
  return { error, scores: p.scores(PROBE, 3), ledger: ledgerOf(p), releases: p.privacy().releases };
}

/** Every number written in a message (to check that no value of the statistic is among them). */
function numbersIn(message: string): number[] {
  return [...message.matchAll(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi)].map((m) => Number(m[0]));
}

function assertClosed(id: PolicyId, a: Outcome, b: Outcome, fresh: string): void {
  assert.ok(a.error instanceof Error && b.error instanceof Error, `${id}: no release was refused`);
  assert.equal(a.releases, 0, `${id}: privacy() counts a refused release`);
  assert.equal(a.ledger, fresh, `${id}: the ledger changed`);
  assert.equal(b.ledger, fresh, `${id}: the ledger changed`);
  assert.deepEqual([...a.scores], [...b.scores], `${id}: scores depend on rewards that were never released`);
}

describe('a release that fails midway leaves nothing unreleased readable (every private policy)', () => {
  for (const id of PRIVATE_IDS) {
    test(`${id}: the secure noise source fails during the first release`, () => {
      const fresh = ledgerOf(createPolicy(id, options(id)));
      const run = (reward: number): Outcome => {
        const p = createPolicy(id, options(id));
        return withFailingEntropy(() => playUntilRefused(p, reward));
      };
      const a = run(0.1);
      const b = run(0.9);
      assertClosed(id, a, b, fresh);
      assert.match(String((a.error as Error).message), /entropy source failed/);
    });
  }
});

describe('a release the exact sampler refuses is refused whole (priorMean [0, 3e10] at d = 2)', () => {
  for (const id of ['dgs-linucb', 'zcdp-episodic'] as PolicyId[]) {
    test(`${id}: the estimate is refused, not released exact; the error names no value`, () => {
      const extra = { priorMean: [0, 3e10] };
      const fresh = ledgerOf(createPolicy(id, options(id, extra)));
      const a = playUntilRefused(createPolicy(id, options(id, extra)), 0.25);
      const b = playUntilRefused(createPolicy(id, options(id, extra)), 1);
      assertClosed(id, a, b, fresh);
      assert.ok(a.error instanceof ReleaseRefusedError, `${id}: ${String(a.error)}`);
      const message = (a.error as Error).message;
      const big = numbersIn(message).filter((v) => Math.abs(v) >= 1e6);
      assert.deepEqual(big, [], `${id}: the error shows a value of the statistic: ${message}`);
    });
  }

  test('dgs-linucb: every later select is refused too while the estimate cannot be released', () => {
    const id: PolicyId = 'dgs-linucb';
    const p = createPolicy(id, options(id, { priorMean: [0, 3e10] }));
    p.select(arms(0), K);
    p.update(1);
    for (let i = 0; i < 3; i++) assert.throws(() => p.select(arms(1), K), ReleaseRefusedError);
    assert.equal(p.privacy().releases, 0);
  });
});
