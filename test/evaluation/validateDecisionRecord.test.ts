// The decision-log line is validated with the one schema of src/service/decisionLogSchema.ts (issue
// 26): each field's rule comes from the schema (so a line the service writes is one evaluation reads),
// with messages naming the line, the field, the rule and the value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Check } from 'typebox/schema';
import { DataFormatError } from '../../src/data/DataFormatError.js';
import { type RecordPosition, validateDecisionRecord } from '../../src/evaluation/validateDecisionRecord.js';
import { DecisionLogLine, DecisionLogRecord } from '../../src/service/decisionLogSchema.js';

const arms = [
  { id: 'a', features: [1, 0] },
  { id: 'b', features: [0, 1] },
];
const base = { eventId: 'e', arms, chosen: 1, propensity: 0.5 };
const check = (value: unknown, at: RecordPosition = { file: 'log.jsonl', line: 7 }) =>
  validateDecisionRecord(value, at, { dim: null });

function refused(value: unknown, message: string, line = 7, armLines?: number[]): void {
  assert.throws(
    () => check(value, { file: 'log.jsonl', line, ...(armLines === undefined ? {} : { armLines }) }),
    (err: unknown) => {
      assert.ok(err instanceof DataFormatError, String(err));
      assert.equal(err.message, `log.jsonl:${err.line}: ${message}`);
      return true;
    },
  );
}

describe('validateDecisionRecord (the decision-log schema)', () => {
  it('names the field, the rule read from the schema and the value', () => {
    refused({ ...base, eventId: '' }, 'eventId must be a non-empty string. Got "".');
    refused({ arms, chosen: 0, propensity: 1 }, 'eventId is missing: it must be a non-empty string.');
    refused({ ...base, arms: [] }, 'arms must be a non-empty array of {id, features}. Got [].');
    refused({ ...base, arms: [{ features: [1] }] }, 'arms[0].id is missing: it must be a string.');
    refused({ ...base, chosen: 0.5 }, 'chosen must be a non-negative integer. Got 0.5.');
    refused(
      { ...base, propensityKind: 'guess' },
      'propensityKind must be one of exact, monte-carlo, geometric-resampling. Got "guess".',
    );
    refused({ ...base, probabilities: [0.5, 1.5] }, 'probabilities[1] must be a number in [0, 1]. Got 1.5.');
    refused({ ...base, inversePropensity: 0.5 }, 'inversePropensity must be a finite number >= 1. Got 0.5.');
  });

  it('applies the rules the hand-written check missed: an integer model version', () => {
    refused({ ...base, time: 7 }, 'time must be a string. Got 7.');
    // a log from elsewhere keeps its own time format (evaluation does not read it)
    assert.equal(check({ ...base, time: '2019-11-24 00:00:01' }).time, '2019-11-24 00:00:01');
    refused({ ...base, modelVersion: 1.5 }, 'modelVersion must be an integer. Got 1.5.');
    refused({ ...base, model: 3 }, 'model must be a string. Got 3.');
    assert.equal(check({ ...base, time: '2026-01-01T00:00:00.000Z', modelVersion: 3 }).modelVersion, 3);
  });

  it('reads null as absent and keeps other properties out of the way', () => {
    const r = check({ ...base, reward: null, slot: null, extra: 'kept' });
    assert.equal('reward' in r, false);
    assert.equal(r.propensity, 0.5);
  });

  it('names the CSV row of the arm or of the chosen row the field comes from', () => {
    refused(
      {
        ...base,
        arms: [
          { id: 'a', features: [1, 0] },
          { id: 'b', features: [0, 'x'] },
        ],
      },
      'arms[1].features[1] must be a finite number. Got "x".',
      3,
      [3, 4],
    );
    assert.throws(
      () => check({ ...base, reward: 2 }, { file: 'log.jsonl', line: 3, armLines: [3, 4] }),
      (err: unknown) => err instanceof DataFormatError && err.line === 4,
    );
  });

  it('a line of the service export is a decision-log record (one schema, two views)', () => {
    const line = {
      eventId: 'e-1',
      time: '2026-01-01T00:00:00.000Z',
      arms,
      chosen: 0,
      propensity: 0.75,
      probabilities: [0.75, 0.25],
      inversePropensity: 3,
      propensityKind: 'geometric-resampling',
      resamplingCap: 1000,
      model: 'm',
      modelVersion: 2,
      cursor: '17',
    };
    assert.ok(Check(DecisionLogLine, line));
    assert.ok(Check(DecisionLogRecord, line));
    assert.deepEqual(check(line), line);
    // the export's required fields are the record's optional ones, with the same rule
    assert.equal(Check(DecisionLogLine, { ...line, propensity: 0 }), false);
    assert.equal(Check(DecisionLogLine, { ...line, cursor: undefined }), false);
    // the export writes ISO-8601 times; a log from elsewhere may not
    assert.equal(Check(DecisionLogLine, { ...line, time: '2019-11-24 00:00:01' }), false);
    assert.ok(Check(DecisionLogRecord, { ...line, time: '2019-11-24 00:00:01' }));
  });
});
