import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventIdGenerator, newEventId } from '../../src/service/eventIds.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The milliseconds and the 12-bit counter of a version 7 id. */
function parts(id: string): { ms: number; counter: number } {
  const hex = id.replaceAll('-', '');
  return { ms: Number.parseInt(hex.slice(0, 12), 16), counter: Number.parseInt(hex.slice(13, 16), 16) };
}

test('event ids: RFC 9562 version 7, the clock in the first 48 bits, strictly increasing as strings', () => {
  let clock = Date.UTC(2026, 11, 4, 4, 30);
  const next = eventIdGenerator(() => clock);
  const ids: string[] = [];
  for (let i = 0; i < 30_000; i++) {
    if (i % 1000 === 0) clock += 1 + (i % 7); // 1,000 ids per millisecond, then a jump
    ids.push(next());
  }
  for (const id of ids) assert.match(id, V7);
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]}`);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(parts(ids[0]!).ms, Date.UTC(2026, 11, 4, 4, 30) + 1);
  assert.equal(parts(ids.at(-1)!).ms, clock);
  // each new millisecond starts its counter below 2,048 (room to count on)
  assert.ok(parts(ids[0]!).counter < 2048);
  // the random bits differ between ids of one millisecond (not only the counter)
  const tails = new Set(ids.slice(0, 1000).map((id) => id.slice(20)));
  assert.equal(tails.size, 1000);
});

test('event ids: a clock that stands still or goes back keeps the order (the counter carries into the millisecond)', () => {
  let clock = 1_800_000_000_000;
  const next = eventIdGenerator(() => clock);
  const ids: string[] = [];
  for (let i = 0; i < 10_000; i++) ids.push(next()); // more than 4,096 in one millisecond
  clock -= 5_000; // back five seconds
  for (let i = 0; i < 100; i++) ids.push(next());
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${i}: ${ids[i - 1]} < ${ids[i]}`);
  assert.ok(parts(ids.at(-1)!).ms >= 1_800_000_000_001, 'the carry moved the millisecond on');
  assert.ok(parts(ids.at(-1)!).ms <= 1_800_000_000_003);
});

test('event ids: the process generator is on the wall clock', () => {
  const before = Date.now();
  const id = newEventId();
  assert.match(id, V7);
  const { ms } = parts(id);
  assert.ok(ms >= before && ms <= Date.now() + 1, `${ms} in [${before}, now]`);
  assert.ok(newEventId() > id);
});
