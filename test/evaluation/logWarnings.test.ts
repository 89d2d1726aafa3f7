import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionLogFromRecords } from '../../src/evaluation/decisionLogFromRecords.js';
import { isUniformLogging, logWarnings } from '../../src/evaluation/logWarnings.js';

const arms = [
  { id: 'a', features: [1] },
  { id: 'b', features: [0] },
];

describe('logWarnings', () => {
  it('is silent on a complete log with ordinary propensities', () => {
    const log = decisionLogFromRecords([{ eventId: 'e', arms, chosen: 0, propensity: 0.5, reward: 1 }]);
    assert.deepEqual(logWarnings(log), []);
    assert.equal(isUniformLogging(log), true);
  });

  it('warns about tiny and missing propensities and missing rewards, naming count and first line', () => {
    const log = decisionLogFromRecords(
      [
        { eventId: 'a', arms, chosen: 0, propensity: 0.5, reward: 1 },
        { eventId: 'b', arms, chosen: 0, propensity: 0.001, reward: 1 },
        { eventId: 'c', arms, chosen: 0, reward: 0 },
        { eventId: 'd', arms, chosen: 1, propensity: 0.999 },
      ],
      'logs.jsonl',
      { allowMissingPropensity: true },
    );
    const w = logWarnings(log);
    assert.equal(w.length, 3, w.join('\n'));
    assert.match(w[0]!, /^1 of 4 decisions have no propensity \(first at logs\.jsonl:3\)/);
    assert.match(w[1]!, /^1 of 4 decisions have no reward \(first at logs\.jsonl:4\)/);
    assert.match(
      w[2]!,
      /^1 of 4 propensities are below 0\.01 \(smallest 0\.00100, first at logs\.jsonl:2\): importance weights reach 1\.00e\+3/,
    );
    assert.equal(isUniformLogging(log), false);
  });
});
