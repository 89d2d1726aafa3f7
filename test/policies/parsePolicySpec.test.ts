/**
 * parsePolicySpec: the one parser from untyped input to a typed policy spec (every edge calls it),
 * and the facts other rooms read from the policy schema table instead of comparing ids.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createPolicy,
  isPolicyId,
  POLICY_SCHEMAS,
  PolicySpecError,
  PRIVACY_NEUTRAL_OPTIONS,
  paperAccountant,
  parsePolicyId,
  parsePolicySpec,
  policyIds,
  policyInfo,
} from '../../src/policies/index.js';

test('parsePolicySpec returns the id and the options as given, typed, and createPolicy builds from it', () => {
  const raw: unknown = JSON.parse('{"dim":2,"horizon":10,"seed":1,"epsilon":1}');
  const spec = parsePolicySpec('adaprivate-ts', raw, 'test');
  assert.equal(spec.id, 'adaprivate-ts');
  assert.equal(spec.options, raw, 'the same object, not a copy with defaults');
  assert.equal(createPolicy(spec.id, spec.options).config.batchSize, 300);
});

test('an unknown id is refused with the place and the known ids; bad options with the schema error', () => {
  assert.throws(
    () => parsePolicySpec('ts', { dim: 2, horizon: 10, seed: 1 }, "model 'm'"),
    (e: unknown) =>
      e instanceof PolicySpecError &&
      /^model 'm': unknown policy id "ts"\. Known ids: adaprivate-ts, /.test(e.message),
  );
  assert.throws(() => parsePolicyId(42, 'cli'), /cli: unknown policy id 42/);
  assert.throws(
    () => parsePolicySpec('adaprivate-ts', { dim: 2, horizon: 10, seed: 1, epsilon: 1, q: 0.3 }, 'x'),
    /AdaPrivate-TS: unknown option 'q' for policy 'adaprivate-ts'/,
  );
  assert.throws(() => parsePolicySpec('linucb', 'dim=2', 'x'), TypeError);
  assert.throws(
    () => parsePolicySpec('adaprivate-ts', { dim: 2, horizon: 10, seed: 1 }, 'x'),
    /exactly one of epsilon or rho/,
  );
});

test('PolicyId is the keys of the schema table, and the facts other rooms branch on come from it', () => {
  assert.deepEqual([...policyIds], Object.keys(POLICY_SCHEMAS));
  assert.ok(policyIds.every(isPolicyId));
  // the paper's accountant: 'rdp' for Amp only, 'zcdp' for the others with the option, none otherwise
  assert.equal(paperAccountant('adaprivate-ts-amp'), 'rdp');
  assert.equal(paperAccountant('adaprivate-ts'), 'zcdp');
  assert.equal(paperAccountant('jdp-linucb'), undefined);
  assert.equal(paperAccountant('linucb'), undefined);
  assert.deepEqual(
    policyIds.filter((id) => policyInfo(id).guarantee === 'joint'),
    ['jdp-linucb'],
  );
  assert.deepEqual(
    policyIds.filter((id) => policyInfo(id).guarantee === 'none'),
    ['linucb', 'lints'],
  );
  assert.deepEqual(
    policyIds.filter((id) => policyInfo(id).releasesAtSelect),
    ['dgs-linucb'],
  );
  // lambda calibrates the noise: it is a privacy parameter (a changed lambda is refused as one)
  assert.equal(PRIVACY_NEUTRAL_OPTIONS.has('lambda'), false);
  assert.equal(PRIVACY_NEUTRAL_OPTIONS.has('alpha'), true);
});
