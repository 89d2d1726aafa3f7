import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tableToCsv, toCsv } from '../../../src/experiments/report/csv.js';
import { escapeHtml, htmlTable } from '../../../src/experiments/report/htmlReport.js';
import { markdownSection, markdownTable } from '../../../src/experiments/report/markdownTable.js';
import { reportTable } from '../../../src/experiments/report/ReportTable.js';

const table = reportTable({
  title: 'Main table',
  caption: 'mean ± 95% CI over 3 seeds',
  columns: [{ header: 'policy' }, { header: 'reward', align: 'right' }],
  rows: [
    ['AdaPrivate-TS', '0.700 ± 0.050'],
    ['a|b', '0.600 ± 0.010'],
  ],
  raw: [
    ['AdaPrivate-TS', 0.7],
    ['a|b', 0.6],
  ],
});

test('markdownTable renders header, alignment and escaped cells', () => {
  assert.equal(
    markdownTable(table),
    '| policy | reward |\n| --- | ---: |\n| AdaPrivate-TS | 0.700 ± 0.050 |\n| a\\|b | 0.600 ± 0.010 |\n',
  );
  const sec = markdownSection(table, 2);
  assert.ok(sec.startsWith('## Main table\n'));
  assert.ok(sec.includes('mean ± 95% CI over 3 seeds'));
});

test('reportTable refuses ragged rows', () => {
  assert.throws(
    () => reportTable({ title: 'X', columns: [{ header: 'a' }], rows: [['1', '2']] }),
    /row 0 has 2 cells, the header has 1/,
  );
  assert.throws(
    () => reportTable({ title: 'X', columns: [{ header: 'a' }], rows: [['1']], raw: [] }),
    /raw has 0 rows/,
  );
});

test('CSV quotes fields and uses raw values', () => {
  assert.equal(toCsv(['a', 'b'], [[1, 'x,y']]), 'a,b\n1,"x,y"\n');
  assert.equal(toCsv(['a', 'b'], [[null, 'say "hi"']]), 'a,b\n,"say ""hi"""\n');
  assert.equal(toCsv(['a'], [[Number.NaN]]), 'a\n\n');
  assert.equal(tableToCsv(table), 'policy,reward\nAdaPrivate-TS,0.7\na|b,0.6\n');
  assert.throws(() => toCsv(['a'], [[1, 2]]), /has 2 fields/);
});

test('htmlTable escapes cells and marks right-aligned columns', () => {
  const html = htmlTable(
    reportTable({ title: '<T>', columns: [{ header: 'a', align: 'right' }], rows: [['<b>']] }),
  );
  assert.ok(html.includes('<caption>&lt;T&gt;</caption>'));
  assert.ok(html.includes('<td class="r">&lt;b&gt;</td>'));
  assert.equal(escapeHtml(`a < b & "c" 'd'`), 'a &lt; b &amp; &quot;c&quot; &#39;d&#39;');
});
