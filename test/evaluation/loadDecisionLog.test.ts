import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DataFormatError } from '../../src/data/DataFormatError.js';
import type { DecisionRecord } from '../../src/evaluation/DecisionRecord.js';
import { decisionLogFormatOf, loadDecisionLog } from '../../src/evaluation/loadDecisionLog.js';
import { syntheticDecisions } from '../../src/evaluation/syntheticDecisions.js';
import { writeDecisionLog } from '../../src/evaluation/writeDecisionLog.js';

const dir = mkdtempSync(join(tmpdir(), 'adaprivate-logs-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(name: string, text: string): string {
  const p = join(dir, `${n++}-${name}`);
  writeFileSync(p, text);
  return p;
}

const good = (over: Record<string, unknown> = {}): string =>
  JSON.stringify({
    eventId: `e${n}-${Math.random()}`,
    time: '2026-01-01T00:00:00Z',
    arms: [
      { id: 'a', features: [0.1, 0.2] },
      { id: 'b', features: [0.3, -0.4] },
    ],
    chosen: 1,
    propensity: 0.5,
    probabilities: [0.5, 0.5],
    reward: 1,
    ...over,
  });

async function refused(path: string, line: number, pattern: RegExp): Promise<void> {
  await assert.rejects(loadDecisionLog(path), (err: unknown) => {
    assert.ok(err instanceof DataFormatError, String(err));
    assert.equal(err.line, line, err.message);
    assert.match(err.message, pattern);
    assert.ok(err.message.startsWith(`${path}:${line}: `), err.message);
    return true;
  });
}

describe('loadDecisionLog (JSON Lines)', () => {
  it('reads the contract-4 format, skipping blank lines, into columnar arrays', async () => {
    const p = file(
      'ok.jsonl',
      `${good()}\n\n${good({ chosen: 0, propensity: 0.25, probabilities: [0.25, 0.75], reward: undefined })}\n`,
    );
    const log = await loadDecisionLog(p);
    assert.equal(log.rounds, 2);
    assert.equal(log.dim, 2);
    assert.deepEqual(Array.from(log.armOffsets), [0, 2, 4]);
    assert.deepEqual(Array.from(log.chosen), [1, 0]);
    assert.deepEqual(Array.from(log.propensity), [0.5, 0.25]);
    assert.equal(log.reward[0], 1);
    assert.ok(Number.isNaN(log.reward[1]!), 'absent reward is NaN');
    assert.deepEqual(Array.from(log.lines), [1, 3]);
    assert.deepEqual(Array.from(log.loggingProbabilities!), [0.5, 0.5, 0.25, 0.75]);
    assert.deepEqual(Array.from(log.features.subarray(2, 4)), [0.3, -0.4]);
  });

  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['missing propensity', { propensity: undefined, probabilities: undefined }, /propensity is missing/],
    [
      'propensity 0',
      { propensity: 0, probabilities: undefined },
      /propensity must be a number in \(0, 1\]\. Got 0\./,
    ],
    [
      'propensity above 1',
      { propensity: 1.5, probabilities: undefined },
      /propensity must be a number in \(0, 1\]\. Got 1\.5\./,
    ],
    [
      'wrong feature length',
      {
        arms: [
          { id: 'a', features: [0.1, 0.2] },
          { id: 'b', features: [0.3] },
        ],
      },
      /arms\[1\]\.features must have 2 values .* Got 1\./,
    ],
    ['reward above 1', { reward: 2 }, /reward must be a number in \[0, 1\].*Got 2\./],
    ['negative reward', { reward: -0.1 }, /reward must be a number in \[0, 1\]/],
    [
      'chosen out of range',
      { chosen: 2 },
      /chosen must be an integer index into arms, in \[0, 2\)\. Got 2\./,
    ],
    [
      'probabilities inconsistent with propensity',
      { probabilities: [0.6, 0.4] },
      /probabilities\[chosen\] must equal propensity/,
    ],
    ['probabilities not summing to 1', { probabilities: [0.5, 0.6], propensity: 0.6 }, /must sum to 1/],
    [
      'non-finite feature',
      {
        arms: [
          { id: 'a', features: [0.1, 'x'] },
          { id: 'b', features: [0, 0] },
        ],
      },
      /arms\[0\]\.features\[1\] must be a finite number/,
    ],
  ];
  for (const [name, over, pattern] of cases) {
    it(`refuses ${name} with the line number`, async () => {
      const p = file('bad.jsonl', `${good()}\n${good()}\n\n${good(over)}\n${good()}\n`);
      await refused(p, 4, pattern);
    });
  }

  it('refuses invalid JSON and a log with no decision', async () => {
    await refused(file('bad.jsonl', `${good()}\n{"eventId": \n`), 2, /not valid JSON/);
    await refused(file('empty.jsonl', '\n\n'), 1, /no decisions/);
  });

  it('accepts missing propensities only when asked (NaN in the log)', async () => {
    const p = file(
      'missing.jsonl',
      `${good()}\n${good({ propensity: undefined, probabilities: undefined })}\n`,
    );
    await refused(p, 2, /propensity is missing/);
    const log = await loadDecisionLog(p, { allowMissingPropensity: true });
    assert.ok(Number.isNaN(log.propensity[1]!));
  });
});

describe('loadDecisionLog (CSV, one row per candidate arm)', () => {
  const header = 'eventId,time,arm,chosen,propensity,reward,x1,x2';
  it('groups consecutive rows into decisions; the chosen row carries propensity and reward', async () => {
    const p = file(
      'ok.csv',
      `${header}\ne1,,a,0,0.25,,0.1,0.2\ne1,2026-01-01T00:00:00Z,b,1,0.75,0,0.3,0.4\ne2,,a,1,0.5,1,0.5,0.6\ne2,,b,0,,,0.7,0.8\n`,
    );
    const log = await loadDecisionLog(p);
    assert.equal(log.rounds, 2);
    assert.deepEqual(Array.from(log.chosen), [1, 0]);
    assert.deepEqual(Array.from(log.propensity), [0.75, 0.5]);
    assert.deepEqual(Array.from(log.reward), [0, 1]);
    assert.deepEqual(Array.from(log.lines), [2, 4]);
    assert.deepEqual(Array.from(log.loggingProbabilities!.subarray(0, 2)), [0.25, 0.75]);
    assert.ok(Number.isNaN(log.loggingProbabilities![2]!), 'second decision gives only the propensity');
  });

  const cases: [string, string, number, RegExp][] = [
    ['missing propensity', 'e2,,a,1,,1,0.5,0.6\ne2,,b,0,,,0.7,0.8', 3, /propensity is missing/],
    [
      'propensity 0',
      'e2,,a,1,0,1,0.5,0.6\ne2,,b,0,,,0.7,0.8',
      3,
      /propensity must be a number in \(0, 1\]\. Got 0\./,
    ],
    [
      'propensity above 1',
      'e2,,a,0,,,0.5,0.6\ne2,,b,1,1.2,1,0.7,0.8',
      4,
      /propensity must be a number in \(0, 1\]/,
    ],
    [
      'reward out of range',
      'e2,,a,1,0.5,3,0.5,0.6\ne2,,b,0,,,0.7,0.8',
      3,
      /reward must be a number in \[0, 1\]/,
    ],
    ['wrong feature length (empty cell)', 'e2,,a,1,0.5,1,0.5,0.6\ne2,,b,0,,,0.7,', 4, /x2 must be a number/],
    ['non-numeric feature', 'e2,,a,1,0.5,1,abc,0.6', 3, /x1 must be a number\. Got "abc"/],
    ['no chosen row', 'e2,,a,0,0.5,,0.5,0.6\ne2,,b,0,,,0.7,0.8', 3, /has no row with chosen = 1/],
    ['two chosen rows', 'e2,,a,1,0.5,1,0.5,0.6\ne2,,b,1,0.5,1,0.7,0.8', 4, /second row with chosen = 1/],
    ['non-consecutive rows', 'e2,,a,1,0.5,1,0.5,0.6\ne1,,b,0,,,0.7,0.8', 4, /must be consecutive/],
    ['a wrong number of cells', 'e2,,a,1,0.5,1,0.5', 3, /not valid CSV/],
  ];
  for (const [name, rows, line, pattern] of cases) {
    it(`refuses ${name} with the line number`, async () => {
      const p = file('bad.csv', `${header}\ne1,,a,1,1,1,0.1,0.2\n${rows}\ne3,,a,1,1,1,0.1,0.2\n`);
      await refused(p, line, pattern);
    });
  }

  it('refuses a header without feature columns or with an unknown column', async () => {
    await refused(file('h.csv', 'eventId,chosen,propensity\ne,1,1\n'), 1, /feature columns x1\.\.xd/);
    await refused(
      file('h.csv', 'eventId,chosen,propensity,x1,score\ne,1,1,0,0\n'),
      1,
      /unknown column "score"/,
    );
    await refused(file('h.csv', 'eventId,chosen,propensity,x2\ne,1,1,0\n'), 1, /x1 is missing/);
  });
});

describe('writeDecisionLog', () => {
  it('round-trips synthetic decisions through JSON Lines and CSV to the same log', async () => {
    const records: DecisionRecord[] = [
      ...syntheticDecisions({ env: { dim: 3, arms: 10, armsPerRound: 4 }, seed: 5, rounds: 50 }),
    ];
    const pj = join(dir, 'rt.jsonl');
    const pc = join(dir, 'rt.csv');
    assert.equal(writeDecisionLog(pj, records, 'jsonl'), 50);
    assert.equal(writeDecisionLog(pc, records, 'csv'), 50);
    assert.equal(decisionLogFormatOf(pc), 'csv');
    const a = await loadDecisionLog(pj);
    const b = await loadDecisionLog(pc);
    for (const key of [
      'armOffsets',
      'features',
      'chosen',
      'propensity',
      'reward',
      'loggingProbabilities',
    ] as const) {
      assert.deepEqual(Array.from(a[key]!), Array.from(b[key]!), key);
    }
    assert.deepEqual(a.eventIds, b.eventIds);
    assert.deepEqual(Array.from(a.features.subarray(0, 3)), records[0]!.arms[0]!.features);
  });
});
