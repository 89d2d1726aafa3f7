// Re-renders the claim summaries of the committed reproduction documents (docs/REPRODUCTION*.md)
// from their own parts tables, with the code of this checkout: the bottom line, the summary table
// (ours beside the paper's), each claim's verdict line and rule text, and the charts of the claims
// (docs/img/reproduction/claim-*.svg). The full-scale studies take hours; their part tables are
// the committed results, so this tool applies a change of the combining rule, the wording or the
// charts without re-running them. Level parts (real-data CTRs) are re-scored by the one verdict
// rule with the run's no-learning level (the reference table's greedy prior, or random of K on a
// cold start) as the null. Usage: npm run build && node scripts/rerender-reproduction-docs.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bandChartSpec } from '../dist/src/experiments/report/bandChartSpec.js';
import { markdownTable } from '../dist/src/experiments/report/markdownTable.js';
import { renderSvg } from '../dist/src/experiments/report/renderSvg.js';
import { claimCharts, DIFFERENCE_CHARTS } from '../dist/src/experiments/reproduce/claimCharts.js';
import { RULE_TEXT } from '../dist/src/experiments/reproduce/claims/evaluateClaim.js';
import { REAL_DATA_CLAIM_SPECS } from '../dist/src/experiments/reproduce/claims/realDataClaimSpecs.js';
import { SYNTHETIC_CLAIM_SPECS } from '../dist/src/experiments/reproduce/claims/syntheticClaimSpecs.js';
import { storedExactClaims } from '../dist/src/experiments/reproduce/exactAccounting/exactAccountingChart.js';
import { withExactAccountingLine } from '../dist/src/experiments/reproduce/exactAccounting/withExactAccountingLine.js';
import { parseClaimSections } from '../dist/src/experiments/reproduce/parseClaimSections.js';
import { bottomLine, claimsTable } from '../dist/src/experiments/reproduce/reproductionMarkdown.js';
import {
  FOCUS_METHODS,
  TUNED_REWARD_CHART_OPTIONS,
} from '../dist/src/experiments/reproduce/syntheticCharts.js';
import { powerClaimSpecs } from '../dist/src/experiments/reproduce/syntheticPower.js';
import { syntheticScale } from '../dist/src/experiments/reproduce/syntheticScale.js';
import {
  combineVerdicts,
  countVerdicts,
  levelVerdict,
  verdictSummary,
} from '../dist/src/experiments/reproduce/verdict.js';

const docs = 'docs';
const specs = [
  ...SYNTHETIC_CLAIM_SPECS,
  ...powerClaimSpecs(syntheticScale('full')),
  ...REAL_DATA_CLAIM_SPECS.movielens,
  ...REAL_DATA_CLAIM_SPECS.jester,
];
const titleRe = (t) =>
  new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '.*')}$`);
const specOf = (title) => specs.find((s) => titleRe(s.title).test(title));

// the old standard rule texts, as the documents have them before this change
const OLD_EFFECT =
  /A part is reproduced when our 95% CI, widened by 0\.5 percentage points on each side[\s\S]*?\(two-sided t-test, 5% level\)\./g;
const OLD_LEVEL =
  /A part is reproduced when our mean CTR \(in percent\) lies in the paper's range[\s\S]*?else it is mixed\./g;

/** Re-renders one document section (a whole file or one real-data section): returns the new text and its claims. */
function rerender(text, kind) {
  const greedy = /\| (?:biased|unit-product) \| ([\d.]+) \| ([\d.]+) \| [\d.]+ \|/.exec(text);
  const warm = text.includes('warm start (prior mean');
  const levelNull = greedy === null ? undefined : 100 * Number(warm ? greedy[2] : greedy[1]);
  const claims = parseClaimSections(text).map((c) => {
    const spec = specOf(c.title);
    const parts = c.parts.map((p, i) =>
      spec?.parts[i]?.score === 'level' && p.estimate !== undefined
        ? {
            ...p,
            verdict: levelVerdict(p.estimate, [spec.parts[i].paper.lo, spec.parts[i].paper.hi], levelNull),
          }
        : p,
    );
    const vs = parts.map((p) => p.verdict);
    const named = spec?.headline === undefined ? -1 : parts.findIndex((p) => p.label === spec.headline);
    return {
      ...c,
      id: spec?.id ?? c.title,
      parts,
      verdict: combineVerdicts(vs),
      counts: countVerdicts(vs),
      headline: named >= 0 ? named : parts.findIndex((p) => p.verdict !== 'not tested'),
      ...(spec?.short === undefined ? {} : { short: spec.short }),
    };
  });
  let out = text;
  for (const c of claims) {
    // the section of this claim: from its heading to the next heading
    const start = out.indexOf(`### ${c.title}\n`);
    const end = out.indexOf('\n#', start + 4);
    let sec = out.slice(start, end < 0 ? undefined : end);
    sec = sec.replace(/\*\*Verdict: [^\n]*\n/, `**Verdict: ${verdictSummary(c.counts)}.**\n`);
    for (const p of c.parts) {
      const row = new RegExp(
        `(\\n\\| ${p.label.replace(/[.*+?^$()|[\]\\]/g, '\\$&')} \\|[^\\n]*\\| )[a-z ]+( \\|)\\n`,
      );
      sec = sec.replace(row, `$1${p.verdict}$2\n`);
    }
    sec = sec.replace(OLD_EFFECT, RULE_TEXT.effect).replace(OLD_LEVEL, RULE_TEXT.level);
    // the claim's difference chart, under its rule (once)
    const plan = DIFFERENCE_CHARTS.find((d) => d.series.some((x) => x.claim === c.id));
    const img = plan === undefined ? '' : `![${plan.title}](img/reproduction/${plan.name}.svg)\n`;
    if (kind === 'synthetic' && img !== '' && !sec.includes(img)) {
      const at = sec.search(/\n!\[|$/);
      sec = `${sec.slice(0, at).replace(/\n*$/, '\n')}\n${img}${sec.slice(at)}`;
    }
    out = out.slice(0, start) + sec + (end < 0 ? '' : out.slice(end));
  }
  const table = markdownTable(claimsTable(claims));
  const scale = /\(quick run\)|Scale \*\*quick\*\*/.test(text) ? 'quick' : 'full';
  const line = bottomLine(claims, scale);
  if (kind === 'synthetic') {
    out = out.replace(/\| What the paper claims \|[\s\S]*?\n\n/, `${table}\n`);
    out = out.replace(
      /^(# Reproduction of the synthetic study\n\n)(\*\*Bottom line\.\*\*[^\n]*\n\n)?/,
      `$1${line}\n\n`,
    );
  } else {
    out = out.replace(
      /\| Claim \| Verdict \|[\s\S]*?\n\n|\| What the paper claims \|[\s\S]*?\n\n/,
      `${table}\n`,
    );
    out = out.replace(
      /^(<!-- [^\n]*-->\n)?(## Real data: [^\n]*\n\n)(\*\*Bottom line\.\*\*[^\n]*\n\n)?/,
      `$1$2${line}\n\n`,
    );
  }
  return { text: out, claims };
}

const syntheticPath = join(docs, 'REPRODUCTION.md');
const whole = readFileSync(syntheticPath, 'utf8');
// the synthetic part (before the real-data sections) and each real-data section inside it
const cut = whole.indexOf('<!-- section:real-data-');
const synthetic = rerender(whole.slice(0, cut), 'synthetic');
let rest = whole.slice(cut);
const sections = {};
for (const ds of ['jester', 'movielens']) {
  const a = rest.indexOf(`<!-- section:real-data-${ds}:start -->`);
  const b = rest.indexOf(`<!-- section:real-data-${ds}:end -->`);
  const r = rerender(rest.slice(a, b), 'real');
  sections[ds] = r;
  rest = rest.slice(0, a) + r.text + rest.slice(b);
  const own = join(docs, `REPRODUCTION-${ds}.md`);
  // the dataset's own section only: the marked sections after it (user-level, exact accounting)
  // belong to other commands, whose claims are not the paper's
  const ownText = readFileSync(own, 'utf8');
  const mark = ownText.indexOf('<!-- section:');
  const head = mark < 0 ? ownText : ownText.slice(0, mark);
  writeFileSync(
    own,
    withExactAccountingLine(rerender(head, 'real').text + (mark < 0 ? '' : ownText.slice(mark))),
  );
}
writeFileSync(syntheticPath, withExactAccountingLine(synthetic.text + rest));

// charts of the claims: the paired differences with their 95% CI by epsilon (with the claims of the
// exact-accounting sections, `reproduce exact` / `reproduce movielens-exact`)
const all = [
  ...synthetic.claims,
  ...sections.movielens.claims,
  ...sections.jester.claims,
  ...storedExactClaims(docs),
];
for (const ch of claimCharts(all)) {
  writeFileSync(join(docs, 'img', 'reproduction', `${ch.name}.svg`), await renderSvg(ch.spec));
  console.log(`${ch.name}.svg`);
}
for (const c of synthetic.claims)
  console.log(`${c.verdict.padEnd(15)} ${verdictSummary(c.counts)}  ${c.title}`);

// the overview chart of reward vs epsilon, from the main table (mean ± 95% CI half-width), with the
// methods of the claims highlighted and the others muted, as the generator now draws it
const main = /### Main table, default settings[^\n]*\n\n(\|[^\n]*\n)+/.exec(synthetic.text);
if (main !== null) {
  const lines = main[0].split('\n').filter((l) => l.startsWith('| '));
  const eps = lines[0]
    .split(' | ')
    .slice(2)
    .map((h) => Number(/eps = ([\d.]+)/.exec(h)[1]));
  const series = lines.slice(2).map((l) => {
    const c = l.replace(/^\| | \|$/g, '').split(' | ');
    return {
      label: c[0],
      points: c.slice(2).map((cell, i) => {
        const [, m, h] = /([\d.]+) ± ([\d.]+)/.exec(cell);
        return { x: eps[i], mean: Number(m), lo: Number(m) - Number(h), hi: Number(m) + Number(h) };
      }),
    };
  });
  const spec = bandChartSpec(series, {
    title: 'Mean reward vs epsilon (defaults)',
    xTitle: 'epsilon',
    yTitle: 'mean expected reward',
    yBounds: [0, 1],
    xScale: 'log',
    points: true,
    highlight: FOCUS_METHODS.filter((f) => series.some((s) => s.label === f)),
  });
  writeFileSync(join(docs, 'img', 'reproduction', 'reward-vs-epsilon.svg'), await renderSvg(spec));
  console.log('reward-vs-epsilon.svg (from the main table)');
}

// the other overview charts from their tables, drawn as the generator draws them (syntheticCharts)
const tableUnder = (heading) => {
  const m = new RegExp(
    `### ${heading.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}[^\n]*\n\n((?:\\|[^\n]*\n)+)`,
  ).exec(synthetic.text);
  if (m === null) return null;
  const lines = m[1].split('\n').filter((l) => l.startsWith('| '));
  const cells = (l) => l.replace(/^\| | \|$/g, '').split(' | ');
  return { header: cells(lines[0]), rows: lines.slice(2).map(cells) };
};
const pm = (cell) => {
  const [, m, h] = /([\d.]+) ± ([\d.]+)/.exec(cell);
  return { mean: Number(m), lo: Number(m) - Number(h), hi: Number(m) + Number(h) };
};
const redraw = async (name, series, options) => {
  writeFileSync(
    join(docs, 'img', 'reproduction', `${name}.svg`),
    await renderSvg(bandChartSpec(series, options)),
  );
  console.log(`${name}.svg (from its table)`);
};
const pctAxis = '% of non-private LinTS';
const tuned = tableUnder('Main table, tuned');
if (tuned !== null) {
  const eps = tuned.header.slice(2).map((h) => Number(/eps = ([\d.]+)/.exec(h)[1]));
  const series = tuned.rows
    .filter((c) => !c[0].includes('('))
    .map((c) => ({ label: c[0], points: c.slice(2).map((cell, i) => ({ x: eps[i], ...pm(cell) })) }));
  await redraw('reward-vs-epsilon-tuned', series, {
    highlight: FOCUS_METHODS.filter((f) => series.some((s) => s.label === f)),
    ...TUNED_REWARD_CHART_OPTIONS,
  });
}
// amplification: the table gives the per-seed percentages' sd; the chart's band is their 95% CI
const seedsN = Number(/Scale \*\*full\*\*: (\d+) seeds/.exec(synthetic.text)?.[1] ?? Number.NaN);
const amp = tableUnder('Amplification: AdaPrivate-TS-Amp by subsampling rate q');
if (amp !== null && seedsN === 12) {
  const t975 = 2.200985; // Student t quantile, 11 degrees of freedom
  const eps = amp.header.slice(1).map((h) => /eps = ([\d.]+)/.exec(h)[1]);
  const series = eps.map((e, j) => ({
    label: `eps = ${e}`,
    points: amp.rows.map((c) => {
      const [, p, sd] = /\(([\d.]+)%\), sd ([\d.]+)%/.exec(c[j + 1]);
      const h = (t975 * Number(sd)) / Math.sqrt(seedsN);
      return { x: Number(c[0].split(' ')[0]), mean: Number(p), lo: Number(p) - h, hi: Number(p) + h };
    }),
  }));
  await redraw('amplification-vs-q', series, {
    title: 'Amplification vs q',
    xTitle: 'q',
    yTitle: pctAxis,
    points: true,
  });
}
const sweep = (heading, label) => {
  const t = tableUnder(heading);
  return t === null ? null : [{ label, points: t.rows.map((c) => ({ x: Number(c[0]), ...pm(c[1]) })) }];
};
const b = sweep('Robustness: batch size B', 'AdaPrivate-TS');
if (b !== null)
  await redraw('sweep-batch-size', b, {
    title: 'Batch size sweep, eps = 1',
    xTitle: 'B',
    yTitle: pctAxis,
    points: true,
    xInteger: true,
  });
const v = sweep('Robustness: TS scale v', 'AdaPrivate-TS');
if (v !== null)
  await redraw('sweep-v', v, {
    title: 'TS scale sweep, eps = 1',
    xTitle: 'v',
    yTitle: pctAxis,
    points: true,
  });
const decay = tableUnder('Robustness: adaptive decay grid');
if (decay !== null) {
  const series = decay.header.slice(1).map((g, j) => ({
    label: g,
    points: decay.rows.map((c) => ({ x: Number(c[0]), ...pm(c[j + 1]) })),
  }));
  await redraw('sweep-decay', series, {
    title: 'Decay grid, eps = 1',
    xTitle: 'v0',
    yTitle: pctAxis,
    points: true,
  });
}
const group = tableUnder('Group privacy: user-level eps');
if (group !== null)
  await redraw(
    'group-privacy',
    [{ label: 'AdaPrivate-TS', points: group.rows.map((c) => ({ x: Number(c[0]), ...pm(c[5]) })) }],
    {
      title: 'Group privacy',
      xTitle: 'k (records per user)',
      xInteger: true,
      yTitle: pctAxis,
      points: true,
      yZero: true,
    },
  );
