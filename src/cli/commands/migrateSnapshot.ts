/**
 * `adaprivate migrate snapshot FILE --key-file KEYFILE [--out PATH] [--previous-key-file PATH]`:
 * the explicit operator step that brings a policy snapshot file (`savePolicyFile`, `policy.save()`)
 * of an older snapshot format to the current one, signed under the key in KEYFILE (created with 64
 * random hex digits, mode 0600, if it does not exist). Running it on an UNSIGNED snapshot (format 2,
 * adaprivate 0.1.0) is the operator's statement that the file came unaltered from their own
 * deployment (`migrateSnapshot(text, { key, trustUnsigned: true })`): its checksum catches
 * corruption but not an edit, so the command says so. A signed snapshot is verified under the
 * previous key (default: the same key) and re-signed (key rotation). The result replaces FILE
 * atomically (mode 0600) unless --out is given. Load it with the same key:
 * `loadPolicyFile(FILE, { key })`.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { migrateSnapshot } from '../../policies/migrateSnapshot.js';
import { SNAPSHOT_FORMAT_VERSION } from '../../policies/snapshotFormat.js';
import { createSnapshotKey } from '../../policies/snapshotKey.js';
import { printJson } from '../output.js';
import { readSnapshotKeyFile, tryReadSnapshotKeyFile, writeNewSnapshotKeyFile } from '../snapshotKeyFile.js';
import { UsageError } from '../UsageError.js';

interface Flags {
  readonly keyFile: string;
  readonly previousKeyFile?: string;
  readonly out?: string;
  readonly json?: boolean;
}

/** Adds `snapshot` under `migrate` (the command `registerMigrate` returns). */
export function registerMigrateSnapshot(migrate: Command): void {
  migrate
    .command('snapshot')
    .description(
      `Bring a policy snapshot file to snapshot format ${SNAPSHOT_FORMAT_VERSION}, signed with the key in --key-file. An unsigned snapshot of adaprivate 0.1.0 is accepted here only: run this only on a file you know came unaltered from your own deployment. See docs/api.md.`,
    )
    .argument('<file>', 'the snapshot file (replaced atomically unless --out is given)')
    .requiredOption(
      '--key-file <path>',
      'file with the snapshot key (>= 32 characters; created with 64 random hex digits, mode 0600, if missing)',
    )
    .option(
      '--previous-key-file <path>',
      'the key a signed snapshot was saved with, when it differs (rotation)',
    )
    .option('--out <path>', 'write the migrated snapshot here instead of replacing the file')
    .option('--json', 'print {"file", "out", "from", "to", "library", "keyCreated"} as JSON')
    .action((file: string, _flags: Flags, cmd: Command) => {
      const f = cmd.optsWithGlobals() as Flags; // --json may be parsed by `migrate` itself
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        throw new UsageError(`cannot read ${file} (${(e as Error).message}).`);
      }
      // a missing key file is created only once the migration has succeeded
      const existing = tryReadSnapshotKeyFile(f.keyFile);
      const key = existing ?? createSnapshotKey();
      const previousKey =
        f.previousKeyFile === undefined ? undefined : readSnapshotKeyFile(f.previousKeyFile);
      let from: unknown;
      let library: unknown;
      let migrated: string;
      try {
        const parsed = JSON.parse(text) as { version?: unknown; library?: unknown };
        from = parsed.version;
        library = parsed.library;
        migrated = migrateSnapshot(text, {
          key,
          trustUnsigned: true,
          ...(previousKey === undefined ? {} : { previousKey }),
        });
      } catch (e) {
        throw new UsageError(`${file}: ${(e as Error).message}`);
      }
      const created = existing === null;
      if (created && !writeNewSnapshotKeyFile(f.keyFile, key)) {
        throw new UsageError(`${f.keyFile} was created by another process meanwhile; run the command again.`);
      }
      const out = f.out ?? file;
      mkdirSync(dirname(out), { recursive: true });
      const tmp = `${out}.tmp-${process.pid}`;
      writeFileSync(tmp, migrated, { mode: 0o600 });
      renameSync(tmp, out);
      const result = { file, out, from, to: SNAPSHOT_FORMAT_VERSION, library, keyCreated: created };
      if (f.json === true) {
        printJson(result);
        return;
      }
      const unsigned = typeof from === 'number' && from < 3;
      process.stdout.write(
        `${file}: snapshot format ${String(from)} (written by adaprivate ${String(library)}) -> ${SNAPSHOT_FORMAT_VERSION}, signed with the key in ${f.keyFile}${created ? ' (created)' : ''}; written to ${out}\n`,
      );
      if (unsigned) {
        process.stdout.write(
          'note: the input was unsigned: its checksum rules out corruption, not an edit. Keep the key file apart from the snapshots.\n',
        );
      }
    });
}
