import assert from 'node:assert/strict';
import { test } from 'node:test';
import type {
  ClaimSpec,
  Measured,
  Measurements,
} from '../../../../src/experiments/reproduce/claims/ClaimSpec.js';
import { evaluateClaim, RULE_TEXT } from '../../../../src/experiments/reproduce/claims/evaluateClaim.js';
import { SYNTHETIC_CLAIM_SPECS } from '../../../../src/experiments/reproduce/claims/syntheticClaimSpecs.js';
import { syntheticMeasurements } from '../../../../src/experiments/reproduce/claims/syntheticMeasurements.js';
import type { Verdict } from '../../../../src/experiments/reproduce/verdict.js';
import { syntheticFixture } from '../../../fixtures/reproduce/claimsFixture.js';

type Reading = string;

/** Measurements from a table of readings; 'absent' is not in the run. */
function run(table: Record<string, Measured | 'absent'>): Measurements<Reading> {
  return {
    vars: { budget: 7 },
    measure: (r) => {
      const m = table[r];
      return m === 'absent' ? undefined : m;
    },
  };
}

const estimate = (mean: number, lo: number, hi: number): Measured => ({
  kind: 'estimate',
  estimate: { mean, lo, hi, n: 12 },
  text: `${mean} [${lo}, ${hi}]`,
  detectable: true,
});

function spec(parts: ClaimSpec<Reading>['parts']): ClaimSpec<Reading> {
  return {
    id: 'x',
    title: 'TS vs UCB at eps = {budget}',
    paper: 'TS beats UCB.',
    parts,
    rule: [{ standard: 'effect' }, 'Budget {budget}.'],
  };
}

const effectPart = (label: string): ClaimSpec<Reading>['parts'][number] => ({
  label,
  paper: { kind: 'range', lo: 0.5, hi: 1.5, text: '+0.5% to +1.5%' },
  reads: label,
  score: 'effect',
});

test('evaluateClaim: one claim per verdict word, with counts and rule text', () => {
  const m = run({
    rep: estimate(1.1, 0.4, 1.8),
    far: estimate(5, 4, 6),
    eps01: estimate(-0.05, -0.1, 0),
    opp: estimate(-1, -2, -0.6),
    wide: estimate(0, -1.2, 1.1),
    nan: { kind: 'missing', text: 'n/a' },
    gone: 'absent',
  });
  const verdictOf = (...labels: string[]): Verdict => evaluateClaim(spec(labels.map(effectPart)), m).verdict;
  assert.equal(verdictOf('rep'), 'reproduced');
  assert.equal(verdictOf('far', 'eps01'), 'not reproduced');
  assert.equal(verdictOf('opp'), 'opposite');
  assert.equal(verdictOf('wide'), 'inconclusive');
  assert.equal(verdictOf('rep', 'eps01', 'nan'), 'mixed');
  assert.equal(verdictOf('nan', 'gone'), 'not tested');
  const c = evaluateClaim(spec(['rep', 'eps01', 'wide', 'nan', 'gone'].map(effectPart)), m);
  assert.deepEqual(
    c.parts.map((p) => [p.label, p.verdict, p.ours]),
    [
      ['rep', 'reproduced', '1.1 [0.4, 1.8]'],
      ['eps01', 'not reproduced', '-0.05 [-0.1, 0]'],
      ['wide', 'inconclusive', '0 [-1.2, 1.1]'],
      ['nan', 'not tested', 'n/a'],
      ['gone', 'not tested', 'not in this run'],
    ],
  );
  assert.equal(c.counts.reproduced, 1);
  assert.equal(c.counts['not tested'], 2);
  assert.equal(c.title, 'TS vs UCB at eps = 7');
  assert.equal(c.rule, `${RULE_TEXT.effect} Budget 7.`);
  assert.match(c.rule, /95% CI itself \(not widened\) contains both 0 and the paper's value/);
  assert.ok(c.parts[0]!.detectable !== null, 'a comparison over seeds shows its detectable effect');
  // an absent reading can be omitted
  const omitted = evaluateClaim(spec([{ ...effectPart('gone'), whenAbsent: 'omit' }, effectPart('rep')]), m);
  assert.equal(omitted.parts.length, 1);
});

test('evaluateClaim: a reading of the wrong kind for the scoring rule is an error', () => {
  const m = run({ s: { kind: 'scalar', value: 1, text: '1' } });
  assert.throws(
    () => evaluateClaim(spec([effectPart('s')]), m),
    /scored by 'effect' but its reading gives a 'scalar'/,
  );
});

test('synthetic specs: ids are unique and every part reads a quantity the fixture measures', () => {
  const ids = SYNTHETIC_CLAIM_SPECS.map((s) => s.id);
  assert.equal(new Set(ids).size, ids.length);
  const m = syntheticMeasurements(syntheticFixture());
  for (const s of SYNTHETIC_CLAIM_SPECS)
    for (const p of s.parts) assert.ok(m.measure(p.reads) !== undefined, `${s.id}: ${p.label}`);
  // the eps = 0.1 TS vs UCB part of the fixture excludes the paper's effect: not reproduced
  const ts = evaluateClaim(SYNTHETIC_CLAIM_SPECS[0]!, m);
  assert.equal(ts.parts[0]!.label, 'eps = 0.1: TS vs UCB');
  assert.equal(ts.parts[0]!.verdict, 'not reproduced');
});
