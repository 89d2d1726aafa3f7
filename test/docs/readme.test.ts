import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

// the repository's own documents (dist/test/docs/ -> the repository root)
const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const FIRST_SCREEN = 45; // lines

describe('README.md', () => {
  const readme = read('README.md');
  const lines = readme.split('\n');

  test('the first code is the two copy-paste commands, at the top', () => {
    const open = lines.findIndex((l) => l.startsWith('```'));
    assert.ok(open >= 0 && open < 5, `the first code block opens on line ${open + 1}`);
    assert.deepEqual(lines.slice(open + 1, open + 4), [
      'npm ci && npx adaprivate reproduce synthetic --quick --out results/synthetic-quick',
      'npm ci && npm test',
      '```',
    ]);
  });

  test("its first screen says what the reproduction found, exact accounting included, with our numbers beside the paper's", () => {
    const screen = lines.slice(0, FIRST_SCREEN).join('\n');
    assert.match(screen, /\*\*What the reproduction found\*\*/);
    assert.match(screen, /\*\*Exact accounting\*\*/);
    // each figure of the first screen, as the committed document that measured it gives it
    const figures: [readme: string, doc: string, docText: string][] = [
      [
        '+0.0% [-1.2, +1.1]',
        'docs/REPRODUCTION.md',
        'TS vs UCB (eps = 1): ours +0.0% [-1.2%, +1.1%], paper +1.5%',
      ],
      ['-0.6% [-1.0, -0.2]', 'docs/REPRODUCTION.md', 'ours -0.6% [-1.0%, -0.2%], paper +0.5% to +1.5%'],
      ['-3.1% [-3.6, -2.6]', 'docs/REPRODUCTION.md', 'ours -3.1% [-3.6%, -2.6%], paper +4.6%'],
      ['-2.2% [-4.2, -0.1]', 'docs/REPRODUCTION.md', 'ours -2.2% [-4.2%, -0.1%], paper +6.3%'],
      [
        '93.5% of non-private reward, paper 14.2%',
        'docs/REPRODUCTION.md',
        'ours 93.5% [91.3, 95.7], paper 14.2%',
      ],
      [
        '70.4% [70.0, 70.8], paper 71.7-72.6%',
        'docs/REPRODUCTION-movielens.md',
        'ours 70.4 [70.0, 70.8], paper 71.7 to 72.6',
      ],
      [
        '+0.3% [+0.2, +0.4] (paper +3.6%)',
        'docs/REPRODUCTION-jester.md',
        'ours +0.3% [+0.2%, +0.4%], paper +3.6%',
      ],
      ['sigma 4.90 -> 3.73', 'docs/REPRODUCTION.md', 'add 24% less noise (sigma 4.90 -> 3.73)'],
      [
        '**+1.1% [+0.6, +1.6]**',
        'docs/REPRODUCTION.md',
        'it earns +1.1% [+0.6%, +1.6%] (synthetic, paired over 12 seeds)',
      ],
      [
        '+0.2% [+0.1, +0.2] on MovieLens',
        'docs/REPRODUCTION-movielens.md',
        'it earns +0.2% [+0.1%, +0.2%] (MovieLens, paired over 5 seeds)',
      ],
    ];
    for (const [inReadme, doc, inDoc] of figures) {
      assert.ok(screen.includes(inReadme), `README's first screen gives ${inReadme}`);
      assert.ok(read(doc).includes(inDoc), `${doc} still says ${inDoc} (update the README with it)`);
    }
  });
});

describe('docs/REPRODUCTION*.md', () => {
  for (const doc of [
    'docs/REPRODUCTION.md',
    'docs/REPRODUCTION-movielens.md',
    'docs/REPRODUCTION-jester.md',
  ]) {
    test(`${doc} opens with its bottom line, and with the exact-accounting result where it has one`, () => {
      const text = read(doc);
      const paragraphs = text.split('\n\n');
      assert.match(paragraphs[1]!, /^\*\*Bottom line\.\*\* Of the paper's \d+ claims tested here/);
      if (text.includes('<!-- section:exact-accounting-'))
        assert.match(paragraphs[2]!, /^\*\*Exact accounting \(not in the paper\)\.\*\* .*earns [+-]\d/);
    });
  }
});
