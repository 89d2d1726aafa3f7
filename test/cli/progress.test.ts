import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stageProgress } from '../../src/cli/progress.js';

/** A stream that records what is written; `isTTY` as given. */
function sink(isTTY: boolean): { stream: NodeJS.WriteStream; lines: () => string[] } {
  let text = '';
  const stream = {
    isTTY,
    write(chunk: string) {
      text += chunk;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, lines: () => text.split('\n').filter((l) => l !== '') };
}

test('stageProgress on a pipe: a line when a stage starts, one per quarter, one when it ends', () => {
  const s = sink(false);
  const p = stageProgress({ unit: 'cells', stream: s.stream });
  for (let i = 0; i <= 100; i++) p.update('main', i, 100);
  for (let i = 0; i <= 10; i++) p.update('tuning', i, 10);
  p.stop();
  const lines = s.lines();
  const stages = lines.map((l) => l.slice(0, l.indexOf(':')));
  assert.deepEqual(stages, [
    'main',
    'main',
    'main',
    'main',
    'main',
    'tuning',
    'tuning',
    'tuning',
    'tuning',
    'tuning',
  ]);
  assert.match(lines[0]!, /^main: 0\/100 cells \(0%, \d+\.\d s\)$/);
  assert.match(lines[1]!, /^main: 25\/100 cells \(25%/);
  assert.match(lines[4]!, /^main: 100\/100 cells \(100%/);
  assert.match(lines[9]!, /^tuning: 10\/10 cells \(100%/);
});

test('stageProgress on a pipe: stages updated in turn (run at the same time) keep their own lines', () => {
  const s = sink(false);
  const p = stageProgress({ unit: 'cells', stream: s.stream });
  for (let i = 0; i <= 100; i++) {
    p.update('studies', i, 100);
    if (i % 2 === 0) p.update('power', i / 2, 50);
  }
  p.stop();
  const lines = s.lines();
  // five lines each (start, three quarters, end), in the order they were reached, none repeated
  assert.equal(lines.filter((l) => l.startsWith('studies: ')).length, 5);
  assert.equal(lines.filter((l) => l.startsWith('power: ')).length, 5);
  assert.equal(new Set(lines.map((l) => l.replace(/, \d+\.\d s\)$/, ''))).size, 10);
  assert.match(lines.at(-1)!, /^(studies|power): \d+\/\d+ cells \(100%/);
});

test('stageProgress on a pipe: a stage that starts finished prints one line; repeated updates print nothing more', () => {
  const s = sink(false);
  const p = stageProgress({ stream: s.stream });
  p.update('cached', 40, 40);
  p.update('cached', 40, 40);
  p.update('load', 0, Number.NaN);
  p.update('load', 5, Number.NaN);
  assert.deepEqual(s.lines().length, 2, s.lines().join('\n'));
  assert.match(s.lines()[0]!, /^cached: 40\/40 \(100%/);
  assert.match(s.lines()[1]!, /^load: 0\/\? \(\d+\.\d s\)$/);
});

test('stageProgress on a terminal: no plain lines (a bar appears only after a second)', () => {
  const s = sink(true);
  const p = stageProgress({ stream: s.stream });
  p.update('main', 0, 100);
  p.update('main', 1, 100);
  p.stop();
  assert.deepEqual(s.lines(), []);
});
