import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markedSections, upsertSection } from '../../../src/experiments/report/markedSections.js';

test('upsertSection appends a new block, replaces it in place, and markedSections finds them', () => {
  let doc = '# Doc\n\nbody\n';
  doc = upsertSection(doc, 'real-data-jester', '## J1\n');
  doc = upsertSection(doc, 'real-data-movielens', '## M1\n');
  assert.equal(markedSections(doc).length, 2);
  doc = upsertSection(doc, 'real-data-jester', '## J2\nmore\n');
  assert.ok(doc.startsWith('# Doc\n\nbody\n'));
  assert.ok(!doc.includes('## J1'));
  assert.ok(doc.indexOf('## J2') < doc.indexOf('## M1'), 'replaced in place, order kept');
  const blocks = markedSections(doc);
  assert.deepEqual(
    blocks.map((b) => b.split('\n')[1]),
    ['## J2', '## M1'],
  );
  // a regenerated document that re-appends the kept blocks has the same blocks
  const regenerated = `# New doc\n\n${blocks.join('\n')}`;
  assert.deepEqual(markedSections(regenerated), blocks);
  assert.throws(() => upsertSection(doc, 'Bad Id', 'x'), /id must match/);
});
