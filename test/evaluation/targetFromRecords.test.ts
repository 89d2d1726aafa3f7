// A policy from elsewhere given as per-decision probabilities (issue 27: `evaluate --target`),
// against hand-computed estimates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import { evaluateOnLog } from '../../src/evaluation/evaluateOnLog.js';
import { targetFromRecords } from '../../src/evaluation/targetFromRecords.js';
import { HAND_VALUES, TARGET_LINES, TARGET_LOG } from '../fixtures/evaluation/targetInput.js';

describe('targetFromRecords', () => {
  const log = decisionLogFromRecords(TARGET_LOG);
  const lines = TARGET_LINES.map((record, i) => ({ record, line: i + 1 }));

  it('aligns the probabilities with the log and gives the hand-computed replay, IPW and SNIPW', () => {
    const target = targetFromRecords(log, lines, 't.jsonl');
    assert.deepEqual(Array.from(target), [0.8, 0.2, 0.5, 0.5, 1, 0, 0.25, 0.75]);
    const r = evaluateOnLog(
      log,
      {
        evaluated: () => {
          throw new Error('never run');
        },
        target,
      },
      {
        estimators: ['replay', 'ipw', 'snipw'],
        resamples: 20,
      },
    );
    for (const e of r.estimates) {
      assert.ok(Math.abs(e.value - HAND_VALUES[e.estimator as 'ipw']) < 1e-12, `${e.estimator} ${e.value}`);
    }
    assert.ok(r.warnings.some((w) => /IPW: the estimate 1\.150 is outside \[0, 1\]/.test(w)));
  });

  it('refuses a wrong length, a bad sum, an unknown or repeated event id, and a missing decision, naming the line', () => {
    const bad = (record: unknown, re: RegExp, rest = lines.slice(1)) =>
      assert.throws(() => targetFromRecords(log, [{ record, line: 1 }, ...rest], 't.jsonl'), re);
    bad({ eventId: 'e3', probabilities: [1] }, /t\.jsonl:1: probabilities must be an array of 2 numbers/);
    bad({ eventId: 'e3', probabilities: [0.5, 0.4] }, /t\.jsonl:1: probabilities must sum to 1/);
    bad({ eventId: 'zz', probabilities: [1, 0] }, /t\.jsonl:1: eventId "zz" is not a decision of records/);
    bad({ eventId: 'e1', probabilities: [1, 0] }, /eventId "e1" appears twice/);
    assert.throws(
      () => targetFromRecords(log, lines.slice(1), 't.jsonl'),
      /decision "e3" \(records:3\) has no target probabilities/,
    );
  });
});
