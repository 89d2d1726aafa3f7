import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

// the script lives outside src (not compiled): import it from the repository root
interface CurveRun {
  dataset: string;
  source: string;
  horizon: number;
  seeds: number[];
  warmStart: boolean;
}
interface ScriptModule {
  curvePlan(
    argv: string[],
    readDocument?: (dataset: string) => string,
  ): { workers: number; runs: CurveRun[] };
}
const script = (): Promise<ScriptModule> =>
  import(new URL('../../../scripts/rerender-realdata-curves.mjs', import.meta.url).href);

const jesterDoc =
  'Protocol: Li et al. replay, uniformly random logging over K=5 candidates, 30000 logged steps per run, seeds 1, 2, 3, 4, 5, delta 1e-5, policies at their default settings (not tuned), cold start (theta_0 = 0). Effective steps per run: 5842-6159.';
const movielensDoc =
  'Protocol: Li et al. replay, uniformly random logging over K=5 candidates, 200000 logged steps per run, seeds 1, 2, 3, delta 1e-5, policies at their default settings (not tuned), warm start (prior mean theta_0 = ridge fit of the training split, prior weight tuned on its validation part).';
const docs = (dataset: string) => (dataset === 'jester' ? jesterDoc : movielensDoc);

describe('scripts/rerender-realdata-curves.mjs', () => {
  test('the replay length, seeds and start come from the committed document', async () => {
    const { curvePlan } = await script();
    const plan = curvePlan(['--jester', 'j.csv', '--movielens', 'r.csv'], docs);
    assert.deepEqual(
      plan.runs.map((r) => [r.dataset, r.source, r.horizon, r.seeds, r.warmStart]),
      [
        ['movielens', 'r.csv', 200_000, [1, 2, 3], true],
        ['jester', 'j.csv', 30_000, [1, 2, 3, 4, 5], false],
      ],
    );
    assert.equal(plan.workers, 2);
  });

  test('--jester-horizon and --movielens-horizon reach the runs', async () => {
    // the script used to document these options but never read them (every Jester re-draw ran
    // 150,000 steps, whatever was asked, against a document made with 30,000)
    const { curvePlan } = await script();
    const plan = curvePlan(
      [
        '--jester',
        'j.csv',
        '--jester-horizon',
        '12345',
        '--movielens',
        'r.csv',
        '--movielens-horizon',
        '777',
        '--workers',
        '1',
      ],
      docs,
    );
    assert.deepEqual(
      plan.runs.map((r) => [r.dataset, r.horizon]),
      [
        ['movielens', 777],
        ['jester', 12_345],
      ],
    );
    assert.equal(plan.workers, 1);
  });

  test('malformed options and documents without run settings are refused', async () => {
    const { curvePlan } = await script();
    assert.throws(
      () => curvePlan(['--jester', 'j.csv', '--jester-horizon', '3e4'], docs),
      /--jester-horizon must be a positive integer\. Got 3e4/,
    );
    assert.throws(() => curvePlan(['--jester'], docs), /--jester needs a value/);
    assert.throws(
      () => curvePlan(['--jester', 'j.csv'], () => 'no settings here'),
      /REPRODUCTION-jester\.md does not say its logged steps/,
    );
    assert.deepEqual(curvePlan([], docs).runs, []);
  });
});
