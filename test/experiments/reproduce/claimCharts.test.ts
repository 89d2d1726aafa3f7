import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderSvg } from '../../../src/experiments/report/renderSvg.js';
import {
  claimCharts,
  differenceChartSpec,
  paperFigure,
} from '../../../src/experiments/reproduce/claimCharts.js';
import { parseClaimSections, parseEstimate } from '../../../src/experiments/reproduce/parseClaimSections.js';
import { bottomLine, claimsTable } from '../../../src/experiments/reproduce/reproductionMarkdown.js';

// a small document in the format reproductionMarkdown writes
const doc = `# Reproduction of the synthetic study

| What the paper claims | In plain words | Verdict | Parts by verdict |
| --- | --- | --- | --- |
| Default TS beats default UCB by 0.5-1.5%, significantly | Does TS beat UCB? | mixed | 1 not reproduced, 1 inconclusive |

## Claims

### Default TS beats default UCB by 0.5-1.5%, significantly

**Paper:** TS beats UCB by 0.5-1.5%.

**Verdict: mixed** (1 not reproduced, 1 inconclusive).

| Part | Paper | Ours (mean [95% CI]) | Detectable (80% power) | Verdict |
| --- | --- | --- | --- | --- |
| eps = 0.1: TS vs UCB | +0.5% to +1.5% | +0.0% [-0.2%, +0.1%] | 0.21% | not reproduced |
| eps = 1: TS vs UCB | +1.5% | -0.3% [-1.2%, +1.1%], 94 seeds (half-width 0.35 points) | 1.64% | inconclusive |

*Rule:* whatever.

### Power run: amplification (q = 0.3) vs no subsampling

**Paper:** Amplification helps.

**Verdict: opposite** (1 opposite).

| Part | Paper | Ours (mean [95% CI]) | Detectable (80% power) | Verdict |
| --- | --- | --- | --- | --- |
| eps = 1: amplification q = 0.3 vs none (q = 1) | +4.6% (MovieLens) | -3.1% [-3.6%, -2.6%], 288 seeds (half-width 0.46 points) | 0.65% | opposite |
`;

test('parseEstimate and paperFigure read the documents’ number formats', () => {
  assert.deepEqual(parseEstimate('-0.6% [-1.0%, -0.2%], 94 seeds (half-width 0.42 points)'), {
    mean: -0.6,
    lo: -1,
    hi: -0.2,
    n: 94,
  });
  assert.deepEqual(parseEstimate('70.4 [70.0, 70.8]'), { mean: 70.4, lo: 70, hi: 70.8 });
  assert.equal(parseEstimate('order 16 (sigma_amp = 2.5931)'), undefined);
  assert.deepEqual(paperFigure('+0.5% to +1.5%'), [0.5, 1.5]);
  assert.deepEqual(paperFigure('up to +18%'), [18, 18]);
  assert.deepEqual(paperFigure('+4.6% (MovieLens)'), [4.6, 4.6]);
  assert.equal(paperFigure('(not stated)'), null);
});

test('claims read back from a document: no part reproduced is never "mixed"; the table shows ours beside the paper', () => {
  const claims = parseClaimSections(doc);
  assert.equal(claims.length, 2);
  const [ts, amp] = claims;
  assert.equal(ts!.plain, 'Does TS beat UCB?');
  assert.equal(ts!.verdict, 'not reproduced', 'the old document said "mixed"');
  assert.deepEqual(ts!.parts[1]!.estimate, { mean: -0.3, lo: -1.2, hi: 1.1, n: 94 });
  assert.equal(amp!.verdict, 'opposite');
  const t = claimsTable(claims);
  assert.deepEqual(
    t.columns.map((c) => c.header),
    ['What the paper claims', 'In plain words', 'Ours (mean [95% CI]) beside the paper', 'Verdict (parts)'],
  );
  assert.equal(t.rows[0]![2], 'eps = 0.1: TS vs UCB: +0.0% [-0.2%, +0.1%] (paper +0.5% to +1.5%)');
  assert.equal(t.rows[0]![3], 'not reproduced (1), inconclusive (1)');
  const line = bottomLine(
    claims.map((c, i) => ({ ...c, short: ['TS vs UCB', 'amplification'][i]! })),
    'quick',
  );
  assert.match(
    line,
    /^\*\*Bottom line\.\*\* Of the paper's 2 claims tested here, none reproduces in full, none in part and 2 not at all \(1 of them comes? out opposite\)/,
  );
  assert.match(
    line,
    /TS vs UCB \(eps = 0\.1\): ours \+0\.0% \[-0\.2%, \+0\.1%\], paper \+0\.5% to \+1\.5% \(not reproduced\)/,
  );
  assert.match(
    line,
    /amplification \(eps = 1\): ours -3\.1% \[-3\.6%, -2\.6%\], paper \+4\.6% \(MovieLens\) \(opposite\)/,
  );
  assert.match(line, /\*\*quick\*\* run: its intervals are wide/);
});

test('difference charts: the paired CIs by epsilon with zero and the paper drawn, from the parts', async () => {
  const claims = parseClaimSections(doc).map((c, i) => ({
    ...c,
    id: ['ts-vs-ucb-default', 'power-amplification'][i]!,
  }));
  const charts = claimCharts(claims);
  assert.deepEqual(
    charts.map((c) => c.name),
    ['claim-ts-vs-ucb', 'claim-amplification'],
  );
  const spec = differenceChartSpec(
    {
      name: 'x',
      title: 'TS - UCB',
      yTitle: 'diff',
      series: [{ label: 'main', claim: 'ts-vs-ucb-default', part: /^eps = ([\d.]+): TS vs UCB$/ }],
    },
    claims,
  ) as unknown as { layer: { data: { values: Record<string, unknown>[] } }[] };
  const [range, value, zero, bars] = spec.layer;
  assert.deepEqual(range!.data.values, [{ eps: '0.1', lo: 0.5, hi: 1.5, what: "paper's figure" }]);
  assert.deepEqual(value!.data.values, [{ eps: '1', lo: 1.5, hi: 1.5, what: "paper's figure" }]);
  assert.deepEqual(zero!.data.values, [{ zero: 0 }]);
  assert.deepEqual(
    bars!.data.values.map((r) => [r.eps, r.mean, r.lo, r.hi, r.verdict]),
    [
      ['0.1', 0, -0.2, 0.1, 'not reproduced'],
      ['1', -0.3, -1.2, 1.1, 'inconclusive'],
    ],
  );
  const svg = await renderSvg(charts[0]!.spec);
  assert.ok(svg.includes('no difference'), 'the zero line is explained');
  assert.ok(svg.includes('95% CI of the paired difference'), 'the bars are labelled for what they are');
  assert.ok(svg.includes('#4477aa') || svg.includes('#4477AA'), 'the colour-blind-safe palette');
  assert.equal(differenceChartSpec({ name: 'y', title: 't', yTitle: 'y', series: [] }, claims), null);
});
