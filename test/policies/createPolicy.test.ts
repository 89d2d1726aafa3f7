// createPolicy's options are typed per policy id: tsc compiles this file (npm run typecheck / build),
// so each `@ts-expect-error` line below fails the build if the wrong option stops being a compile
// error. At run time the same calls are refused by the schema with a message naming the option.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createPolicy,
  type Policy,
  type PolicyConfigFor,
  type PolicyOptionsFor,
} from '../../src/policies/index.js';

const base = { dim: 2, horizon: 10, seed: 1 } as const;

test('wrong options are compile errors and run-time errors', () => {
  assert.throws(
    // @ts-expect-error q is an AdaPrivate-TS-Amp option, not an AdaPrivate-TS one
    () => createPolicy('adaprivate-ts', { ...base, epsilon: 1, q: 0.3 }),
    /AdaPrivate-TS: unknown option 'q' for policy 'adaprivate-ts'/,
  );
  assert.throws(
    // @ts-expect-error LinUCB is not private: no budget
    () => createPolicy('linucb', { ...base, epsilon: 1 }),
    /LinUCB: unknown option 'epsilon' for policy 'linucb'/,
  );
  assert.throws(
    // @ts-expect-error a private policy needs epsilon or rho
    () => createPolicy('adaprivate-ts', { ...base }),
    /exactly one of epsilon or rho must be given for a private policy. Got neither/,
  );
  assert.throws(
    // @ts-expect-error epsilon and rho are exclusive
    () => createPolicy('dgs-linucb', { ...base, epsilon: 1, rho: 0.1 }),
    /exactly one of epsilon or rho must be given for a private policy. Got both/,
  );
  assert.throws(
    // @ts-expect-error dim is required
    () => createPolicy('lints', { horizon: 10, seed: 1 }),
    /LinTS: option 'dim' is required/,
  );
  assert.throws(
    // @ts-expect-error orders takes 'paper' or 'extended'
    () => createPolicy('adaprivate-ts-amp', { ...base, epsilon: 1, orders: 'all' }),
    /orders must be one of 'paper', 'extended'. Got "all"/,
  );
  assert.throws(
    // @ts-expect-error batchSize is a number
    () => createPolicy('adaprivate-ucb', { ...base, rho: 0.5, batchSize: '300' }),
    /batchSize must be a positive integer. Got "300"/,
  );
  assert.throws(
    // @ts-expect-error cTrigger belongs to the episodic policies, not to JDP-LinUCB
    () => createPolicy('jdp-linucb', { ...base, epsilon: 1, cTrigger: 2 }),
    /unknown option 'cTrigger'/,
  );
});

test('right options type-check, and the configuration type is that policy own', () => {
  const ts = createPolicy('adaprivate-ts', { ...base, epsilon: 1, v: 0.5 });
  const batch: number = ts.config.batchSize; // typed, no cast
  assert.equal(batch, 300);
  assert.equal(ts.config.v, 0.5);
  const amp = createPolicy('adaprivate-ts-amp', { ...base, rho: 0.2, q: 0.5, orders: 'paper' });
  const orders: 'paper' | 'extended' = amp.config.orders;
  assert.equal(orders, 'paper');
  const lin: Policy<'linucb'> = createPolicy('linucb', { ...base, alpha: 2 });
  assert.equal(lin.config.alpha, 2);
  // @ts-expect-error LinUCB's configuration has no batchSize
  assert.equal(lin.config.batchSize, undefined);
  const adaptive: PolicyConfigFor<'adaprivate-ts-adaptive'> = createPolicy('adaprivate-ts-adaptive', {
    ...base,
    epsilon: 1,
    adaptiveSetting: 'tuned',
  }).config;
  assert.equal(adaptive.lambda0, undefined); // optional without a default: absent
  assert.equal(adaptive.gamma, 0.95);
  const opts: PolicyOptionsFor<'zcdp-episodic'> = { ...base, epsilon: 2, cTrigger: 4 };
  assert.equal(createPolicy('zcdp-episodic', opts).config.cTrigger, 4);
});
