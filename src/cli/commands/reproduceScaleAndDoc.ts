/**
 * The `--quick` / `--tiny` / `--write-doc [path]` flags shared by `adaprivate reproduce synthetic`,
 * `reproduce exact` and `reproduce users`.
 */
import { UsageError } from '../UsageError.js';

/** The flags {@link reproduceScaleAndDoc} reads. */
export interface ScaleAndDocFlags {
  readonly quick?: boolean;
  readonly tiny?: boolean;
  readonly writeDoc?: boolean | string;
  readonly workers?: number;
  readonly cache?: boolean;
}

/**
 * The run's scale ('tiny' with `--tiny`, 'quick' with `--quick`, else 'full') and the document to
 * write (`--write-doc` alone: docs/REPRODUCTION.md; `--write-doc <path>`: that path; absent:
 * undefined), with the study options these flags give (`workers` from `--workers`, `cacheDir: null`
 * from `--no-cache`, `docPath`; each only when set). Throws a UsageError naming
 * `reproduce <subcommand>` when `--quick` and `--tiny` are both given.
 *
 * @example
 * reproduceScaleAndDoc('exact', { quick: true, writeDoc: true }); // { scale: 'quick', docPath: 'docs/REPRODUCTION.md', runOptions: { docPath: 'docs/REPRODUCTION.md' } }
 */
export function reproduceScaleAndDoc(
  subcommand: string,
  flags: ScaleAndDocFlags,
): {
  scale: 'full' | 'quick' | 'tiny';
  docPath: string | undefined;
  runOptions: { workers?: number; cacheDir?: null; docPath?: string };
} {
  if (flags.quick === true && flags.tiny === true)
    throw new UsageError(`reproduce ${subcommand}: --quick and --tiny exclude each other.`);
  const scale = flags.tiny === true ? 'tiny' : flags.quick === true ? 'quick' : 'full';
  const docPath =
    flags.writeDoc === true
      ? 'docs/REPRODUCTION.md'
      : typeof flags.writeDoc === 'string'
        ? flags.writeDoc
        : undefined;
  const runOptions = {
    ...(flags.workers === undefined ? {} : { workers: flags.workers }),
    ...(flags.cache === false ? { cacheDir: null } : {}),
    ...(docPath === undefined ? {} : { docPath }),
  };
  return { scale, docPath, runOptions };
}
