// Snapshot format versions (issue 26, "Upgrades"): the snapshots written by adaprivate 0.1.0
// (test/fixtures/snapshots-0.1.0, unsigned format 2) load only after the explicit migration with
// trustUnsigned, then keep their ledger and continue exactly as 0.1.0 continued them (seeded).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  createPolicy,
  loadPolicy,
  migrateSnapshot,
  type Policy,
  type PolicySnapshot,
  SNAPSHOT_FORMAT_VERSION,
} from '../../src/policies/index.js';
import { signSnapshot } from '../../src/policies/snapshotFormat.js';
import { snapshotKeyBytes } from '../../src/policies/snapshotKey.js';

const KEY = 'migration-test key of at least 32 characters';
const DIR = new URL('../../../test/fixtures/snapshots-0.1.0/', import.meta.url);
const names = readdirSync(DIR)
  .filter((f) => f.endsWith('.snapshot.json'))
  .map((f) => f.slice(0, -'.snapshot.json'.length))
  .sort();

interface Continuation {
  readonly inputs: readonly { readonly features: readonly number[]; readonly rewards: readonly number[] }[];
  readonly arms: readonly number[];
  readonly probe: readonly number[];
  readonly scores: readonly number[];
  readonly privacy: Readonly<Record<string, unknown>>;
}

function fixture(name: string): { text: string; next: Continuation } {
  return {
    text: readFileSync(new URL(`${name}.snapshot.json`, DIR), 'utf8'),
    next: JSON.parse(readFileSync(new URL(`${name}.continuation.json`, DIR), 'utf8')) as Continuation,
  };
}

/** Plays the recorded rounds (select, update) on `p`: the arms chosen, then the probe's scores. */
function playOn(p: Policy, next: Continuation): { arms: number[]; scores: number[] } {
  const k = next.probe.length / p.config.dim;
  const arms: number[] = [];
  for (const r of next.inputs) {
    const arm = p.select(Float64Array.from(r.features), k);
    p.update(r.rewards[arm]!);
    arms.push(arm);
  }
  return { arms, scores: Array.from(p.scores(Float64Array.from(next.probe), k)) };
}

/** The ledger figures that 0.1.0 printed and that must survive the upgrade. */
function figures(p: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { releases, epsilon, delta, rho, partitions, noise, composition } = p;
  return { releases, epsilon, delta, rho, partitions, noise, composition };
}

test('the fixtures cover every policy family', () => {
  assert.ok(names.length >= 12, names.join(', '));
});

describe('0.1.0 snapshots (unsigned format 2)', () => {
  for (const name of names) {
    test(`${name}: refused as it is; migrated with trustUnsigned, loads with its ledger and continues identically`, () => {
      const { text, next } = fixture(name);
      const old = JSON.parse(text) as {
        version: number;
        library: string;
        state: { base: { ledger: unknown } };
      };
      assert.equal(old.version, 2);
      assert.throws(
        () => loadPolicy(text, { key: KEY }),
        /snapshot format version 2 \(written by adaprivate 0\.1\.0\) is unsigned.*adaprivate migrate snapshot FILE --key-file KEYFILE.*trustUnsigned/,
      );
      assert.throws(() => migrateSnapshot(text, { key: KEY }), /is unsigned.*trustUnsigned: true/);
      const migrated = migrateSnapshot(text, { key: KEY, trustUnsigned: true });
      const snap = JSON.parse(migrated) as PolicySnapshot & { state: { base: { ledger: unknown } } };
      assert.equal(snap.version, SNAPSHOT_FORMAT_VERSION);
      assert.equal(snap.library, '0.1.0'); // kept as information
      assert.equal('checksum' in snap, false);
      if (name === 'jdp-linucb') {
        // format 3 counts JDP-LinUCB's node releases, 0.1.0 its tree levels: the same rho
        const [a, b] = [snap.state.base.ledger, old.state.base.ledger] as { rho: number; releases: number }[];
        assert.equal(a!.rho, b!.rho);
        assert.equal(a!.releases, 37);
      } else assert.deepEqual(snap.state.base.ledger, old.state.base.ledger); // carried over unchanged
      const p = loadPolicy(migrated, { key: KEY });
      assert.throws(() => loadPolicy(migrated, { key: `${KEY}, another` }), /field 'mac'/);
      // continue with the rounds 0.1.0 played after the snapshot
      const { arms, scores } = playOn(p, next);
      p.finish();
      if (name.endsWith('-secure')) {
        // fresh secure noise: other arms are possible, the ledger's figures are not
        assert.equal(p.privacy().releases, next.privacy.releases);
        assert.equal(p.privacy().epsilon, next.privacy.epsilon);
        assert.equal(p.privacy().noise, 'secure');
      } else {
        assert.deepEqual(arms, next.arms);
        assert.deepEqual(scores, next.scores);
        // as 0.1.0 wrote it: JSON (epsilon Infinity of a non-private policy is null there)
        const got = figures(JSON.parse(JSON.stringify(p.privacy())));
        const want = figures(next.privacy);
        if (name === 'jdp-linucb') {
          // one release per node (round) in format 3, per tree level in 0.1.0: the same guarantee
          assert.equal(got.releases, 67);
          delete got.releases;
          delete want.releases;
        }
        assert.deepEqual(got, want);
      }
    });
  }

  test('a corrupted 0.1.0 snapshot is refused by the migration (its checksum)', () => {
    const { text } = fixture('adaprivate-ts');
    const s = JSON.parse(text);
    s.state.base.rounds += 1;
    assert.throws(
      () => migrateSnapshot(JSON.stringify(s), { key: KEY, trustUnsigned: true }),
      /field 'checksum' is .*corrupted or was edited/,
    );
  });
});

describe('signed snapshots', () => {
  test('a current snapshot migrates to itself; key rotation with previousKey', () => {
    const { text } = fixture('linucb'); // non-private: no lineage registry to hand over in this process
    const signed = migrateSnapshot(text, { key: KEY, trustUnsigned: true });
    assert.equal(migrateSnapshot(signed, { key: KEY }), signed);
    const NEW = 'the rotated key, also 32 characters or more';
    assert.throws(() => migrateSnapshot(signed, { key: NEW }), /field 'mac'.*another key/);
    const rotated = migrateSnapshot(signed, { key: NEW, previousKey: KEY });
    assert.equal(loadPolicy(rotated, { key: NEW }).roundsLearned, 37);
    assert.throws(() => loadPolicy(rotated, { key: KEY }), /field 'mac'/);
  });

  test('a newer format version is refused naming both versions; the package version never decides', () => {
    const { text } = fixture('linucb');
    const s = JSON.parse(migrateSnapshot(text, { key: KEY, trustUnsigned: true }));
    s.version = SNAPSHOT_FORMAT_VERSION + 1;
    s.library = '9.0.0';
    assert.throws(
      () => migrateSnapshot(s, { key: KEY }),
      new RegExp(
        `snapshot format version ${SNAPSHOT_FORMAT_VERSION + 1} \\(written by adaprivate 9\\.0\\.0\\) is newer than this library reads: adaprivate .* reads snapshot format versions up to ${SNAPSHOT_FORMAT_VERSION}`,
      ),
    );
    assert.throws(() => loadPolicy(s, { key: KEY }), /is newer than this library reads/);
    // 0.1.0 refused a snapshot whose `library` said 0.1.1 (and vice versa): no longer. A snapshot
    // as adaprivate 0.1.1 would write it (same format version, signed under the key) loads.
    const { mac: _m, ...content } = JSON.parse(migrateSnapshot(text, { key: KEY, trustUnsigned: true }));
    const other = signSnapshot({ ...content, library: '0.1.1' }, snapshotKeyBytes(KEY, 'test'));
    assert.equal(loadPolicy(JSON.stringify(other), { key: KEY }).roundsLearned, 37);
  });

  test('bad options are refused naming the option', () => {
    const { text } = fixture('linucb');
    assert.throws(
      () => migrateSnapshot(text, { key: 'short', trustUnsigned: true }),
      /option 'key' must be a string of at least 32 characters/,
    );
    assert.throws(
      () => migrateSnapshot(text, { key: KEY, trustUnsigned: 'yes' as unknown as boolean }),
      /option 'trustUnsigned' must be true or false/,
    );
    assert.throws(() => migrateSnapshot('{', { key: KEY }), /not valid JSON/);
    assert.throws(() => migrateSnapshot({ format: 'x' }, { key: KEY }), /field 'format'/);
  });
});

describe('format-3 snapshots (every pending slot stored) load through the 3 -> 4 step', () => {
  const DIR3 = new URL('../../../test/fixtures/snapshots-format3/', import.meta.url);
  const names3 = readdirSync(DIR3)
    .filter((f) => f.endsWith('.snapshot.json'))
    .map((f) => f.slice(0, -'.snapshot.json'.length))
    .sort();

  interface Continuation3 extends Continuation {
    readonly key: string;
    readonly pending: readonly { readonly ticket: number; readonly reward: number }[];
  }

  test('the fixtures are there', () => {
    assert.deepEqual(names3, ['adaprivate-ts', 'dgs-linucb', 'jdp-linucb']);
  });

  for (const name of names3) {
    test(`${name}: keeps its waiting tickets' features, drops the stale rows, continues identically`, () => {
      const text = readFileSync(new URL(`${name}.snapshot.json`, DIR3), 'utf8');
      const next = JSON.parse(
        readFileSync(new URL(`${name}.continuation.json`, DIR3), 'utf8'),
      ) as Continuation3;
      const old = JSON.parse(text) as { version: number; state: { base: { pending: string } } };
      assert.equal(old.version, 3);
      const migrated = JSON.parse(migrateSnapshot(text, { key: next.key })) as {
        version: number;
        state: { base: { pending: string; pendingTicket: string } };
      };
      assert.equal(migrated.version, SNAPSHOT_FORMAT_VERSION);
      // 7 slots of d = 4 in format 3; the 3 waiting tickets' rows in format 4
      assert.equal(Buffer.from(old.state.base.pending, 'base64').length, 7 * 4 * 8);
      assert.equal(Buffer.from(migrated.state.base.pending, 'base64').length, 3 * 4 * 8);
      for (const direct of [true, false]) {
        // loaded as it is (the migration inside restore) and after the explicit migration
        const p = loadPolicy(direct ? text : JSON.stringify(migrated), { key: next.key, branch: true });
        for (const t of next.pending) p.updateTicket(t.ticket, t.reward);
        const { arms, scores } = playOn(p, next);
        assert.deepEqual(arms, next.arms);
        assert.deepEqual(scores, next.scores);
        p.finish();
        const got = p.privacy();
        assert.equal(got.releases, next.privacy.releases);
        assert.equal(got.epsilon, next.privacy.epsilon);
        assert.equal(got.rho, next.privacy.rho);
      }
    });
  }

  test('a snapshot stores only the occupied pending slots, and a restore puts each row back in its slot', () => {
    const p = createPolicy('linucb', { dim: 3, horizon: 100, seed: 1, maxPending: 4 });
    const x = Float64Array.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6);
    const a = p.selectTicket(x, 2);
    const b = p.selectTicket(
      x.map((v) => v / 2),
      2,
    );
    p.updateTicket(a.ticket, 1);
    const snap = p.snapshot({ key: KEY });
    const base = (snap as unknown as { state: { base: { pending: string } } }).state.base;
    assert.equal(Buffer.from(base.pending, 'base64').length, 3 * 8); // one row of d = 3
    const q = loadPolicy(snap, { key: KEY });
    p.updateTicket(b.ticket, 0.5);
    q.updateTicket(b.ticket, 0.5);
    assert.deepEqual(Array.from(q.scores(x, 2)), Array.from(p.scores(x, 2)));
    assert.throws(() => q.updateTicket(a.ticket, 1), /ticket 0 is unknown/);
    // a row count that does not match the occupied slots is refused, naming the field
    const bad = JSON.parse(JSON.stringify(snap));
    bad.state.base.pending = Buffer.alloc(2 * 3 * 8).toString('base64');
    const { mac: _m, ...content } = bad;
    assert.throws(
      () => loadPolicy(JSON.stringify(signSnapshot(content, snapshotKeyBytes(KEY, 'test'))), { key: KEY }),
      /pending \(the occupied slots of pendingTicket\) holds 2 values|holds 6 values, expected 3/,
    );
  });
});
