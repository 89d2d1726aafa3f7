/**
 * The steps that bring the content of an older snapshot format to the next format version, one
 * step per version (docs/api.md, "Snapshot format versions"). A step is a pure function of the
 * snapshot's data (without its MAC or checksum); it never reads the package version.
 *
 * - 2 -> 3 (adaprivate 0.1.0 -> signed snapshots): the FNV `checksum` goes (the caller verified it
 *   and signs the result), `version` becomes 3, and the configuration of a private policy gains the
 *   `accountant` that 0.1.0 calibrated with ('zcdp'; AdaPrivate-TS-Amp 'rdp'); the state is unchanged.
 * - 3 -> 4 (smaller snapshots, issue 29): `state.base.pending` keeps only the rows of the occupied
 *   slots of the pending-round table (those whose `pendingTicket` is >= 0), in slot order; format 3
 *   stored every slot, stale rows of completed rounds included, which nothing reads. Fixture:
 *   test/fixtures/snapshots-format3.
 *
 * To add format 5: write the step 4 -> 5 here, raise SNAPSHOT_FORMAT_VERSION (snapshotFormat.ts),
 * and commit a fixture of format 4 beside test/fixtures/snapshots-format3.
 */
import { decodeFloat64, encodeFloat64 } from './float64Codec.js';
import { occupiedRows } from './pendingRows.js';

type Content = Record<string, unknown>;

/**
 * The private policies that have the `accountant` option since format 3, with the accountant that
 * calibrated their noise in 0.1.0 (zCDP; Amp the paper's subsampled RDP): pinned so that a migrated
 * policy keeps its noise scale (the default for new policies may differ).
 */
const V2_ACCOUNTANT: Readonly<Record<string, string>> = {
  'adaprivate-ts': 'zcdp',
  'adaprivate-ucb': 'zcdp',
  'adaprivate-ts-amp': 'rdp',
  'adaprivate-ts-adaptive': 'zcdp',
  'zcdp-episodic': 'zcdp',
  'adac-oful-zcdp': 'zcdp',
  'rarely-switching-zcdp': 'zcdp',
  'dgs-linucb': 'zcdp',
};

/** A format-2 configuration with the options format 3 added, at the values 0.1.0 used. */
function v2Config(id: unknown, config: unknown): unknown {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return config;
  const accountant = typeof id === 'string' ? V2_ACCOUNTANT[id] : undefined;
  if (accountant === undefined || 'accountant' in config) return config;
  return { ...config, accountant };
}

/**
 * A format-3 base state with `pending` cut to the occupied slots' rows; the table's size comes from
 * the configuration (dim, maxPending). A state that does not match it is left as it is: restore then
 * refuses it, naming the field.
 */
function v3Base(base: unknown, config: unknown): unknown {
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return base;
  const b = base as Record<string, unknown>;
  const cfg = (typeof config === 'object' && config !== null ? config : {}) as Record<string, unknown>;
  const d = cfg.dim;
  const slots = typeof cfg.maxPending === 'number' ? cfg.maxPending + 1 : Number.NaN;
  if (!Number.isSafeInteger(d) || !Number.isSafeInteger(slots)) return base;
  try {
    const tickets = decodeFloat64(b.pendingTicket, new Float64Array(slots), 'pendingTicket');
    const table = decodeFloat64(b.pending, new Float64Array(slots * (d as number)), 'pending');
    return { ...b, pending: encodeFloat64(occupiedRows(tickets, table, d as number)) };
  } catch {
    return base;
  }
}

/** Step from version `v` to `v + 1`, by `v`. */
const STEPS: Readonly<Record<number, (content: Content) => Content>> = {
  2: (c) => {
    const { checksum: _checksum, ...rest } = c;
    return { ...rest, config: v2Config(rest.id, rest.config), version: 3 };
  },
  3: (c) => {
    const state = c.state;
    if (typeof state !== 'object' || state === null || Array.isArray(state)) return { ...c, version: 4 };
    const st = state as Record<string, unknown>;
    return { ...c, state: { ...st, base: v3Base(st.base, c.config) }, version: 4 };
  },
};

/**
 * `content` of format version `from` brought to version `to` (>= from) by the steps above; throws
 * naming the version when a step is missing. `who` prefixes the message.
 */
export function migrateSnapshotContentTo(content: Content, from: number, to: number, who: string): Content {
  let c = content;
  for (let v = from; v < to; v++) {
    const step = STEPS[v];
    if (step === undefined) {
      throw new RangeError(
        `${who}: snapshot format version ${from} is too old: no migration step from version ${v} (the oldest snapshot format this library reads is 2, adaprivate 0.1.0's).`,
      );
    }
    c = step(c);
  }
  return c;
}
