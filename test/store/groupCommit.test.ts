import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupCommit } from '../../src/store/groupCommit.js';

/** A GroupCommit whose statements are recorded and answered on the next turn of the event loop. */
function recorder(lingerTurns: number) {
  const statements: string[][] = [];
  const g = new GroupCommit<string, string>(
    3,
    (x) => x,
    async (key, inputs) => {
      statements.push([key, ...inputs]);
      await new Promise((r) => setImmediate(r));
      return inputs.map((x) => `${key}:${x}`);
    },
    () => {},
    lingerTurns,
  );
  return { g, statements };
}

test('GroupCommit: without linger the first write goes alone; the writes that wait share the next statement (a repeat and the max wait again)', async () => {
  const { g, statements } = recorder(0);
  const outs = await Promise.all(['a', 'b', 'c', 'b', 'd', 'e'].map((x) => g.add('m', x)));
  assert.deepEqual(outs, ['m:a', 'm:b', 'm:c', 'm:b', 'm:d', 'm:e']);
  assert.deepEqual(statements, [
    ['m', 'a'],
    ['m', 'b', 'c', 'd'],
    ['m', 'b', 'e'],
  ]);
});

test('GroupCommit with linger: the writes of the turn in which the first one arrived go in its statement; keys apart', async () => {
  const { g, statements } = recorder(1);
  const first = ['a', 'b', 'c', 'd'].map((x) => g.add('m', x));
  const other = g.add('n', 'a');
  await new Promise((r) => setImmediate(r)); // the first statement went out: later writes wait for it
  const later = ['e', 'f'].map((x) => g.add('m', x));
  assert.deepEqual(await Promise.all([...first, other, ...later]), [
    'm:a',
    'm:b',
    'm:c',
    'm:d',
    'n:a',
    'm:e',
    'm:f',
  ]);
  assert.deepEqual(statements, [
    ['m', 'a', 'b', 'c'],
    ['n', 'a'],
    ['m', 'd', 'e', 'f'],
  ]);
});

test('GroupCommit lingering two turns: the writes of the next turn join the first statement too', async () => {
  const { g, statements } = recorder(2);
  const first = ['a', 'b'].map((x) => g.add('m', x));
  await new Promise((r) => setImmediate(r));
  const next = g.add('m', 'c');
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r)); // the first statement went out: a later write waits for it
  const late = g.add('m', 'd');
  assert.deepEqual(await Promise.all([...first, next, late]), ['m:a', 'm:b', 'm:c', 'm:d']);
  assert.deepEqual(statements, [
    ['m', 'a', 'b', 'c'],
    ['m', 'd'],
  ]);
});

test('GroupCommit: a statement that fails answers its writes with the error, the next ones still go', async () => {
  let calls = 0;
  const g = new GroupCommit<string, string>(
    8,
    (x) => x,
    async (_key, inputs) => {
      calls++;
      if (calls === 1) throw new Error('lost connection');
      return inputs.map((x) => x.toUpperCase());
    },
    () => {},
    1,
  );
  const a = g.add('m', 'a');
  const b = g.add('m', 'b');
  await assert.rejects(a, /lost connection/);
  await assert.rejects(b, /lost connection/);
  assert.equal(await g.add('m', 'c'), 'C');
});
