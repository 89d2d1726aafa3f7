// Every policy has a release unit on replicas; the batched ones release exactly once per unit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPolicy, policyIds, policyInfo } from '../../src/policies/index.js';
import { replicaReleaseUnit } from '../../src/service/replicaReleaseUnit.js';

test('release units: batchSize for the batched private policies, 1 (serialised) for the other private ones, 1 for non-private', () => {
  const got = Object.fromEntries(
    policyIds.map((id) => {
      const info = policyInfo(id);
      const p = createPolicy(id, {
        dim: 2,
        horizon: 50,
        seed: 1,
        ...(info.isPrivate ? { epsilon: 1 } : {}),
        ...('batchSize' in info.defaults ? { batchSize: 7 } : {}),
      } as never);
      return [id, replicaReleaseUnit(id, p.config as never)];
    }),
  );
  assert.deepEqual(got, {
    'adaprivate-ts': { unit: 7, serialised: false },
    'adaprivate-ucb': { unit: 7, serialised: false },
    'adaprivate-ts-amp': { unit: 7, serialised: false },
    'adaprivate-ts-adaptive': { unit: 7, serialised: false },
    linucb: { unit: 1, serialised: false },
    lints: { unit: 1, serialised: false },
    'jdp-linucb': { unit: 1, serialised: true },
    'zcdp-episodic': { unit: 1, serialised: true },
    'adac-oful-zcdp': { unit: 1, serialised: true },
    'rarely-switching-zcdp': { unit: 1, serialised: true },
    'dgs-linucb': { unit: 1, serialised: true },
  });
  for (const id of policyIds) {
    if (policyInfo(id).releasesAtSelect) assert.equal(got[id]!.serialised, true, id);
  }
});

test('a batched policy without a valid batchSize is refused, naming it', () => {
  assert.throws(
    () => replicaReleaseUnit('adaprivate-ts', { batchSize: 0 }),
    /adaprivate-ts needs a positive integer batchSize\. Got 0/,
  );
});
