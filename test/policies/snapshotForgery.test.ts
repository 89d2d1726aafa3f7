// Issue 24 item 4: snapshots cannot be forged into a weaker guarantee. Each forgery below is made as
// an attacker without the key would, through the public API only: save, edit the JSON, recompute
// the 0.1.0 checksum (FNV-1a, reimplemented here as an attacker would), load. Each variant is also
// tried as a downgrade to the unsigned 0.1.0 format. Against 0.1.0 every one of them loaded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPolicy, loadPolicy, type Policy, type PolicySnapshot } from '../../src/policies/index.js';
import { signSnapshot } from '../../src/policies/snapshotFormat.js';
import { snapshotKeyBytes } from '../../src/policies/snapshotKey.js';
import { makeStream, play, roundFeatures } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: an attacker edits arbitrary fields of the JSON
type Json = any;

const KEY = 'forgery-test key: 32 characters at least, secret';
const stream = makeStream(29, 400, 5, 4);

/** The 0.1.0 checksum as an attacker recomputes it (two FNV-1a lanes over the JSON text). */
function attackerChecksum(content: unknown): string {
  const text = JSON.stringify(content) ?? '';
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h2 >>> 15);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/**
 * The forgeries of saved `text` by `edit`: (1) edited, checksum recomputed over everything else (the
 * 0.1.0 forgery; any MAC left as it was); (2) the same downgraded to the unsigned format 2 of 0.1.0
 * (MAC removed, version 2, library 0.1.0).
 */
function forgeries(text: string, edit: (s: Json) => void): { name: string; text: string }[] {
  const a = JSON.parse(text);
  edit(a);
  const { checksum: _a, ...restA } = a;
  const b = JSON.parse(text);
  edit(b);
  const { checksum: _b, mac: _m, ...restB } = b;
  const downgraded = { ...restB, version: 2, library: '0.1.0' };
  return [
    { name: 'checksum recomputed', text: JSON.stringify({ ...restA, checksum: attackerChecksum(restA) }) },
    {
      name: 'downgraded to format 2',
      text: JSON.stringify({ ...downgraded, checksum: attackerChecksum(downgraded) }),
    },
  ];
}

/** Asserts that every forgery is refused by loadPolicy (with the right key) and returns nothing loaded. */
function assertRefused(text: string, edit: (s: Json) => void, fresh?: () => Policy): void {
  for (const f of forgeries(text, edit)) {
    assert.throws(
      () => loadPolicy(f.text, { key: KEY }),
      /field 'mac'|is unsigned/,
      `loadPolicy accepted a forgery (${f.name})`,
    );
    if (fresh !== undefined) {
      assert.throws(
        () => fresh().restore(JSON.parse(f.text) as PolicySnapshot, { key: KEY }),
        /field 'mac'|is unsigned/,
        `restore accepted a forgery (${f.name})`,
      );
    }
  }
}

const tsOptions = { dim: 4, horizon: 400, seed: 1, epsilon: 1, batchSize: 20 };

describe('forged snapshots are refused', () => {
  test('the genuine snapshot loads with its key, and not with another key', () => {
    const p = createPolicy('adaprivate-ts', tsOptions);
    play(p, stream, 0, 35);
    const text = p.save({ key: KEY });
    assert.throws(
      () => loadPolicy(text, { key: 'another key of at least 32 characters!!' }),
      /field 'mac' does not match the snapshot under this key: it was saved under another key \(key id "[0-9a-f]{16}", the key given has id "[0-9a-f]{16}"\)/,
    );
    assert.throws(() => loadPolicy(text), /saved under another key.*this process's random key/);
    assert.equal(loadPolicy(text, { key: KEY }).privacy().releases, 1);
  });

  test('an edited lineage id: three copies would each release the pending batch', () => {
    const p = createPolicy('adaprivate-ts', tsOptions);
    play(p, stream, 0, 35); // one release, 15 rewards pending in the raw batch sum
    const text = p.save({ key: KEY });
    for (const lineage of ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'cccccccccccccccc']) {
      assertRefused(text, (s) => {
        s.lineage = lineage;
      });
    }
  });

  test('config and ledger rewritten: an eps-50 release reporting eps 0.1', () => {
    // the default (exact) accountant: since issue 24's large-epsilon fix it calibrates eps 50 too
    const loose = createPolicy('adaprivate-ts', { ...tsOptions, epsilon: 50 });
    assert.equal(loose.privacy().accountant, 'exact');
    play(loose, stream, 0, 45); // two releases at eps 50
    const tight = createPolicy('adaprivate-ts', { ...tsOptions, epsilon: 0.1 });
    play(tight, stream, 0, 45);
    const tightSnap = JSON.parse(tight.save({ key: KEY }));
    assertRefused(
      loose.save({ key: KEY }),
      (s) => {
        s.config = tightSnap.config;
        s.state.base.ledger = tightSnap.state.base.ledger;
      },
      () => createPolicy('adaprivate-ts', { ...tsOptions, epsilon: 0.1 }),
    );
  });

  test('a forged stored sensitivity (DGS-LinUCB, zCDP-Episodic): near-noiseless releases, same ledger', () => {
    const tiny = Buffer.from(Float64Array.of(1e-12).buffer).toString('base64');
    for (const id of ['dgs-linucb', 'zcdp-episodic'] as const) {
      const opts = { dim: 4, horizon: 400, seed: 1, epsilon: 1 };
      const p = createPolicy(id, opts);
      play(p, stream, 0, 30);
      assertRefused(
        p.save({ key: KEY }),
        (s) => {
          s.state.own.sens = tiny;
        },
        () => createPolicy(id, opts),
      );
    }
  });

  test('the DGS-LinUCB ledger reset to 0', () => {
    const opts = { dim: 4, horizon: 400, seed: 1, epsilon: 1 };
    const p = createPolicy('dgs-linucb', opts);
    play(p, stream, 0, 30);
    const empty = JSON.parse(createPolicy('dgs-linucb', opts).save({ key: KEY })).state.base.ledger;
    assertRefused(
      p.save({ key: KEY }),
      (s) => {
        s.state.base.ledger = empty;
        s.state.own.releases = 0;
        // as in a new process, where no registry knows the lineage's 29 releases
        s.lineage = 'dddddddddddddddd';
      },
      () => createPolicy('dgs-linucb', opts),
    );
  });

  test('seeded (recoverable) noise relabelled as secure', () => {
    const p = createPolicy('adaprivate-ts', { ...tsOptions, noiseSeed: 5 });
    play(p, stream, 0, 45);
    assert.equal(p.privacy().noise, 'seeded');
    assertRefused(
      p.save({ key: KEY }),
      (s) => {
        delete s.config.noiseSeed;
        s.state.base.noiseRng = null;
        s.state.base.seededReleases = 0;
      },
      () => createPolicy('adaprivate-ts', tsOptions),
    );
  });

  test('a reordered or re-indented snapshot still verifies; an added field does not', () => {
    const p = createPolicy('adaprivate-ts', tsOptions);
    play(p, stream, 0, 35);
    const snap = JSON.parse(p.save({ key: KEY }));
    // the MAC is over the canonical JSON (sorted keys): a store that reorders keys is harmless
    const reordered = Object.fromEntries(Object.entries(snap).reverse());
    assert.equal(loadPolicy(JSON.stringify(reordered, null, 2), { key: KEY }).privacy().releases, 1);
    assert.throws(() => loadPolicy({ ...snap, extra: 1 }, { key: KEY }), /field 'mac'/);
    assert.throws(() => loadPolicy({ ...snap, ['__proto__']: { x: 1 } }, { key: KEY }), /field 'mac'/);
  });
});

// Even a holder of the key (who can sign anything) cannot lower the noise through the stored
// sensitivity: a restored DGS-LinUCB / zCDP-Episodic uses at least the bound certified from the
// restored public design matrix, so stored values of 1e-12 and 1e-9 (both below that bound) give
// bit-identical later releases; were the stored value used, their noise would differ 1000-fold.
test('a signed snapshot with a tiny stored sensitivity releases at the public-state bound', () => {
  const key = snapshotKeyBytes(KEY, 'test');
  for (const id of ['dgs-linucb', 'zcdp-episodic'] as const) {
    const opts = { dim: 4, horizon: 400, seed: 1, epsilon: 1, noiseSeed: 3 };
    const p = createPolicy(id, opts);
    play(p, stream, 0, 30);
    const saved = p.save({ key: KEY });
    const resigned = (sens: number): string => {
      const { mac: _mac, ...content } = JSON.parse(saved);
      content.state.own.sens = Buffer.from(Float64Array.of(sens).buffer).toString('base64');
      return JSON.stringify(signSnapshot(content, key));
    };
    const after = (text: string): number[] => {
      const q = loadPolicy(text, { key: KEY, branch: true });
      play(q, stream, 30, 40);
      return Array.from(q.scores(roundFeatures(stream, 70), stream.k));
    };
    const a = after(resigned(1e-12));
    const b = after(resigned(1e-9));
    assert.deepEqual(a, b, `${id}: the stored sensitivity below the certified bound changed the releases`);
    assert.ok(a.every(Number.isFinite));
  }
});
