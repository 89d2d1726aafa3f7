import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { realDataCommand } from '../../../../src/experiments/reproduce/realData/realDataCommand.js';

describe('realDataCommand', () => {
  test('a run at the defaults is the bare command', () => {
    assert.equal(realDataCommand({ dataset: 'movielens', quick: false }), 'adaprivate reproduce movielens');
    assert.equal(realDataCommand({ dataset: 'jester', quick: true }), 'adaprivate reproduce jester --quick');
  });

  test('every option the run set is written out, so the document names the command that made it', () => {
    // docs/REPRODUCTION-jester.md was made with --horizon 30000 but said `adaprivate reproduce jester`
    // (150,000 steps): its numbers could not be had from the command it printed
    assert.equal(
      realDataCommand({ dataset: 'jester', quick: false, horizon: 30_000 }),
      'adaprivate reproduce jester --horizon 30000',
    );
    assert.equal(
      realDataCommand({
        dataset: 'movielens',
        quick: false,
        horizon: 1000,
        seeds: 3,
        rank: 20,
        warmStart: false,
      }),
      'adaprivate reproduce movielens --horizon 1000 --seeds 3 --rank 20 --cold-start',
    );
    assert.equal(
      realDataCommand({ dataset: 'jester', quick: false, warmStart: true, construction: 'unit-product' }),
      'adaprivate reproduce jester --warm-start (features: unit-product, set through the API)',
    );
  });
});
