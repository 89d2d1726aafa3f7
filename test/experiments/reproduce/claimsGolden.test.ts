import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { realDataClaims } from '../../../src/experiments/reproduce/realData/realDataClaims.js';
import { syntheticClaims } from '../../../src/experiments/reproduce/syntheticClaims.js';
import {
  goldenClaims,
  realDataFixtures,
  renderClaims,
  syntheticFixture,
} from '../../fixtures/reproduce/claimsFixture.js';

test('claims rendered from the fixture results equal the stored rendering', () => {
  const claims = [...syntheticClaims(syntheticFixture()), ...realDataFixtures().flatMap(realDataClaims)];
  const text = renderClaims(claims);
  if (process.env.UPDATE_GOLDEN === '1')
    writeFileSync(new URL('../../../../test/fixtures/reproduce/claims.golden.txt', import.meta.url), text);
  assert.equal(text, goldenClaims());
});
