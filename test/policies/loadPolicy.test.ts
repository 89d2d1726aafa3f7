// Snapshot safety and save/load: a restored policy never reuses secure noise, the ledger only grows,
// inconsistent or edited snapshots are refused naming the field, loadPolicy rebuilds from the snapshot.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  createPolicy,
  loadPolicy,
  loadPolicyFile,
  type Policy,
  type PolicyOptionsFor,
  type PolicySnapshot,
  policyIds,
  policyInfo,
  savePolicyFile,
} from '../../src/policies/index.js';
import { signSnapshot } from '../../src/policies/snapshotFormat.js';
import { snapshotKeyBytes } from '../../src/policies/snapshotKey.js';
import { make, makeStream, play, roundFeatures } from './helpers.js';

const stream = makeStream(17, 400, 5, 4);

function ts(extra: Record<string, unknown> = {}): Policy {
  return createPolicy('adaprivate-ts', {
    dim: 4,
    horizon: 400,
    seed: 1,
    epsilon: 1,
    batchSize: 20,
    ...extra,
  } as unknown as PolicyOptionsFor<'adaprivate-ts'>);
}

/** The released statistic b (base64). */
function released(p: Policy): string {
  return (p.snapshot().state as { own: { b: string } }).own.b;
}

// biome-ignore lint/suspicious/noExplicitAny: tests edit arbitrary fields of snapshot JSON
type Json = any;

/**
 * A deep copy of `snap` edited by `edit` and signed again under this process's key: an edit by a
 * holder of the key (the consistency checks behind the MAC still catch it). Forgeries without the
 * key are in snapshotForgery.test.ts.
 */
function edited(snap: PolicySnapshot, edit: (s: Json) => void): PolicySnapshot {
  const copy = JSON.parse(JSON.stringify(snap)) as Json;
  edit(copy);
  const { mac: _old, ...content } = copy;
  return signSnapshot(content, snapshotKeyBytes(undefined, 'test')) as PolicySnapshot;
}

describe('restored policies never reuse secure noise', () => {
  test('a reloaded snapshot releases fresh noise on the same data (secure)', () => {
    const p = ts();
    play(p, stream, 0, 35); // one release, 15 rounds pending in the raw sum
    const text = p.save();
    const before = released(p);
    play(p, stream, 35, 5); // releases the pending batch
    const first = released(p);
    // a fresh process with the key would load the snapshot (here: the lineage's record is forgotten by
    // loading a copy whose lineage id is new, so the registry cannot object) and release the same
    // pending data
    const a = loadPolicy(
      edited(JSON.parse(text), (s) => {
        s.lineage = 'f'.repeat(16);
      }),
    );
    assert.equal(released(a), before);
    play(a, stream, 35, 5);
    assert.notEqual(released(a), first); // with independent fresh noise
    assert.equal(a.privacy().noise, 'secure');
    assert.equal(a.privacy().releases, 2);
  });

  test('research mode: a branch replays the seeded stream and privacy() says seeded and branched', () => {
    const p = ts({ noiseSeed: 5 });
    play(p, stream, 0, 35);
    const a = loadPolicy(p.save(), { branch: true });
    play(a, stream, 35, 5);
    play(p, stream, 35, 5);
    assert.equal(released(a), released(p));
    assert.equal(a.privacy().noise, 'seeded');
    assert.equal(a.privacy().branched, true);
    assert.equal(p.privacy().branched, undefined);
    // the branch's snapshots carry it
    assert.equal(loadPolicy(a.save()).privacy().branched, true);
  });
});

describe('two loads of one snapshot cannot both release in one process', () => {
  test('loading hands the lineage over: the earlier holder can no longer update or finish', () => {
    const p = ts();
    play(p, stream, 0, 35); // one release, 15 rounds pending
    const text = p.save();
    const a = loadPolicy(text);
    assert.throws(() => play(p, stream, 35, 1), /lineage [0-9a-f]{16} is now continued by another policy/);
    p.discard(); // the select of that round was allowed: deciding from what it released is fine
    p.select(roundFeatures(stream, 35), stream.k);
    assert.throws(() => p.update(0.5), /now continued by another policy/);
    p.discard();
    assert.throws(() => p.finish(), /now continued by another policy/);
    const b = loadPolicy(text); // same releases as the lineage so far: allowed, a is superseded
    assert.throws(() => play(a, stream, 35, 1), /now continued by another policy/);
    assert.throws(() => a.update(0.5), /now continued by another policy/);
    play(b, stream, 35, 5); // b releases the pending batch
    assert.equal(b.privacy().releases, 2);
    // the lineage has made 2 releases here: the snapshot (1 release) is refused, however loaded
    assert.throws(
      () => loadPolicy(text),
      /'releases' is 1, but its lineage .* has already made 2 releases in this process/,
    );
    assert.throws(() => ts().restore(JSON.parse(text)), /already made 2 releases/);
    // a snapshot of the current holder continues it
    const c = loadPolicy(b.save());
    play(c, stream, 40, 25);
    assert.equal(c.privacy().releases, 3);
    // the scores of a superseded policy are still readable (no release)
    assert.equal(b.privacy().releases, 2);
  });

  test('the research-mode escape is refused with secure noise, and needs no handover when seeded', () => {
    const p = ts();
    play(p, stream, 0, 35);
    assert.throws(() => loadPolicy(p.save(), { branch: true }), /'branch' needs research mode \(noiseSeed\)/);
    play(p, stream, 35, 5); // p still holds its lineage
    const s = ts({ noiseSeed: 3 });
    play(s, stream, 0, 45);
    const text = s.save();
    const x = loadPolicy(text, { branch: true });
    const y = loadPolicy(text, { branch: true });
    play(x, stream, 45, 5);
    play(y, stream, 45, 5);
    play(s, stream, 45, 5);
    for (const q of [x, y]) {
      assert.equal(q.privacy().branched, true);
      assert.equal(released(q), released(s));
    }
  });

  test('DGS-LinUCB releases at select: a superseded holder refuses select too', () => {
    const p = createPolicy('dgs-linucb', { dim: 4, horizon: 400, seed: 1, epsilon: 1 });
    play(p, stream, 0, 10);
    const q = loadPolicy(p.save());
    assert.throws(() => p.select(roundFeatures(stream, 10), stream.k), /now continued by another policy/);
    play(q, stream, 10, 5);
    assert.equal(q.privacy().releases, 14);
  });

  test('non-private policies have no ledger to protect: loading twice is allowed', () => {
    const p = make('linucb');
    play(p, stream, 0, 30);
    const text = p.save();
    const a = loadPolicy(text);
    const b = loadPolicy(text);
    play(a, stream, 30, 5);
    play(b, stream, 30, 5);
    play(p, stream, 30, 5);
  });
});

describe('the ledger only grows', () => {
  test('DGS-LinUCB: 20 rounds, rewind to an older snapshot, 20 more: 40 releases', () => {
    const p = createPolicy('dgs-linucb', { dim: 4, horizon: 400, seed: 1, epsilon: 1 });
    play(p, stream, 0, 1); // no release yet (the first action has no data); the next select releases
    const old = p.snapshot();
    play(p, stream, 1, 20);
    assert.equal(p.privacy().releases, 20);
    assert.throws(() => p.restore(old), /'releases' is 0, behind this policy's 20: .*rewind: true/);
    assert.equal(p.privacy().releases, 20); // refused: unchanged
    p.restore(old, { rewind: true });
    assert.equal(p.privacy().releases, 20); // the rewind keeps every release made
    play(p, stream, 1, 20);
    assert.equal(p.privacy().releases, 40);
  });

  test("a policy that has released refuses another instance's snapshot", () => {
    const p = ts();
    const q = ts();
    play(p, stream, 0, 40);
    play(q, stream, 0, 40);
    assert.throws(() => p.restore(q.snapshot()), /field 'instance'.*loadPolicy/);
  });

  test('a fresh policy continues the lineage ledger; restoring the current snapshot is a no-op', () => {
    const p = ts();
    play(p, stream, 0, 60);
    const q = ts();
    q.restore(p.snapshot());
    assert.deepEqual(q.privacy(), p.privacy());
    q.restore(q.snapshot()); // same instance, same releases: allowed without rewind
    play(q, stream, 60, 20);
    assert.equal(q.privacy().releases, 4);
  });
});

describe('inconsistent, edited, corrupted or foreign snapshots are refused, naming the field', () => {
  const p = ts();
  play(p, stream, 0, 70); // 3 releases, 10 pending
  const snap = p.snapshot();

  test('a crafted releases: 0 ledger is refused', () => {
    const forged = edited(snap, (s) => {
      s.state.base.ledger.releases = 0;
    });
    assert.throws(
      () => ts().restore(forged),
      /inconsistent with its own ledger: releases is 0, the state shows 3/,
    );
    // and without the key, the edit is caught by the MAC
    const careless = JSON.parse(JSON.stringify(snap));
    careless.state.base.ledger.releases = 0;
    assert.throws(() => ts().restore(careless), /field 'mac' does not match.*edited or corrupted/);
  });

  test('release count vs batches: a batch index that does not match the rounds is refused', () => {
    const forged = edited(snap, (s) => {
      s.state.own.batchIndex = 1;
    });
    assert.throws(() => ts().restore(forged), /rounds is 70, but 0 released batches/);
  });

  test('rho vs sigma and count: a smaller per-batch rho is refused', () => {
    const forged = edited(snap, (s) => {
      for (const part of s.state.base.ledger.partitions) part[1] = part[1] / 4;
    });
    assert.throws(() => ts().restore(forged), /does not match 3 parallel releases/);
    const dgs = createPolicy('dgs-linucb', { dim: 4, horizon: 400, seed: 1, epsilon: 1 });
    play(dgs, stream, 0, 30);
    const seq = edited(dgs.snapshot(), (s) => {
      s.state.base.ledger.rho = s.state.base.ledger.rho / 2;
    });
    assert.throws(
      () => createPolicy('dgs-linucb', { dim: 4, horizon: 400, seed: 1, epsilon: 1 }).restore(seq),
      /rho is .*, 29 releases of rho/,
    );
  });

  test('a design matrix holding more data than the rounds is refused', () => {
    const forged = edited(snap, (s) => {
      s.state.own.batchIndex = 1;
      s.state.own.inBatch = 10;
      s.state.base.rounds = 10;
      s.state.base.ledger = (ts().snapshot().state as Json).base.ledger; // an empty ledger
    });
    assert.throws(() => ts().restore(forged), /design matrix holds .* units of data but rounds is 10/);
  });

  test('another format version, format, id or config; the package version does not matter', () => {
    const target = ts();
    // the package version that wrote a snapshot is information only
    const other = edited(snap, (s) => {
      s.library = '0.0.1';
    });
    assert.equal(loadPolicy(other).privacy().releases, 3);
    assert.throws(
      () => target.restore(edited(snap, (s) => (s.version = 5))),
      /snapshot format version 5 \(written by adaprivate .*\) is newer than this library reads: adaprivate .* reads snapshot format versions up to 4/,
    );
    assert.throws(
      () => target.restore(edited(snap, (s) => (s.version = 2))),
      /snapshot format version 2 .* is unsigned.*adaprivate migrate snapshot/,
    );
    assert.throws(() => target.restore(edited(snap, (s) => (s.version = 0))), /field 'version'/);
    assert.throws(() => loadPolicy(edited(snap, (s) => (s.format = 'x'))), /field 'format'/);
    assert.throws(() => loadPolicy(edited(snap, (s) => (s.id = 'nope'))), /field 'id' is "nope"/);
    assert.throws(() => ts({ lambda: 2 }).restore(snap), /field 'config.lambda' is 1, this policy has 2/);
  });

  test('corrupted text: invalid JSON and a flipped byte', () => {
    const text = p.save();
    assert.throws(() => loadPolicy(text.slice(0, text.length - 10)), /not valid JSON/);
    const i = text.indexOf('"b":"') + 8;
    const flipped = text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
    assert.throws(() => loadPolicy(flipped), /field 'mac'/);
  });

  test('a refused restore leaves the policy unchanged', () => {
    const target = ts();
    play(target, stream, 0, 50);
    const before = target.snapshot();
    const forged = edited(before, (s) => {
      s.state.own.inBatch = 3;
    });
    assert.throws(() => target.restore(forged), /inconsistent/);
    assert.deepEqual(target.snapshot(), before);
  });
});

describe('save / loadPolicy', () => {
  for (const id of policyIds) {
    test(`${id}: JSON text round trip rebuilds id, config and ledger; research mode continues bit for bit`, () => {
      const a = make(id);
      play(a, stream, 0, 123);
      const text = a.save();
      const b = loadPolicy(text);
      assert.equal(b.id, id);
      assert.deepEqual(b.config, a.config);
      assert.deepEqual(b.privacy(), a.privacy());
      // both continue: a research-mode branch (b holds the lineage, so a second one is needed)
      const c = loadPolicy(text, { branch: true });
      assert.deepEqual(play(b, stream, 123, 80), play(c, stream, 123, 80));
      if (policyInfo(id).isPrivate) assert.equal(b.privacy().noise, 'seeded');
    });
  }

  test('policies trained by observe and finished (partial last batch released) load consistently', () => {
    for (const id of policyIds) {
      if (!policyInfo(id).isPrivate) continue;
      const p = make(id, { noiseSeed: undefined }); // secure noise
      for (let t = 0; t < 57; t++) p.observe(Float64Array.of(0.3, 0.4, 0.5, 0.1), t % 2);
      p.finish();
      const q = loadPolicy(p.save());
      assert.equal(q.privacy().releases, p.privacy().releases, id);
      assert.equal(q.privacy().noise, 'secure', id);
    }
  });

  test('file round trip, written with owner-only permissions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'adaprivate-snap-'));
    try {
      const p = ts();
      play(p, stream, 0, 45);
      const path = join(dir, 'models', 'ts.json');
      savePolicyFile(p, path);
      assert.equal(statSync(path).mode & 0o777, 0o600);
      const q = loadPolicyFile(path);
      assert.deepEqual(q.privacy(), p.privacy());
      assert.equal(released(q), released(p));
      assert.throws(() => loadPolicyFile(join(dir, 'missing.json')), /cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
