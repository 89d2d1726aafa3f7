/**
 * The command line of a bench script, read once (`node:util` `parseArgs`) and checked before it runs
 * anything; the script reads its options from what {@link benchArgs} returns. `--help` (or `-h`) prints
 * the script's own header comment (its method, usage and options, so the help and the source say
 * the same thing) and exits 0; an option the script does not take, or one missing its value, is
 * refused with a message and exit code 2. A misspelt `--round 3` would otherwise run the defaults
 * for minutes.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * The comment at the top of the file at `path` (a block comment, or consecutive `//` lines), without
 * its comment marks; null when the file starts with neither.
 *
 * @example
 * headerComment('// Times a thing.\n// Usage: node thing.js\nimport x from "y";'); // 'Times a thing.\nUsage: node thing.js'
 */
export function headerComment(text: string): string | null {
  const t = text.replace(/^#![^\n]*\n/, '').trimStart();
  if (t.startsWith('/*')) {
    const end = t.indexOf('*/');
    if (end < 0) return null;
    return t
      .slice(t.startsWith('/**') ? 3 : 2, end)
      .split('\n')
      .map((l) => l.replace(/^\s*\* ?/, ''))
      .join('\n')
      .trim();
  }
  if (t.startsWith('//')) {
    const lines: string[] = [];
    for (const l of t.split('\n')) {
      if (!l.startsWith('//')) break;
      lines.push(l.replace(/^\/\/ ?/, ''));
    }
    return lines.join('\n').trim();
  }
  return null;
}

/**
 * The options of a bench script, read from `argv` (default: this process's arguments) once and
 * checked (see the file comment): `valued` maps each option that takes a value (`--duration 5`) to
 * its default ('' where the script treats it as unset), `switches` are the options that take none
 * (`--json`). Each option is named once, with its default, here.
 *
 * @param scriptUrl the script's `import.meta.url` (its name in messages, its header for --help)
 * @example
 * const a = benchArgs(import.meta.url, { rounds: '3', body: 'json' }, ['json']);
 * Number(a.rounds); // 3 unless --rounds was given
 * a.json; // true when --json was given
 */
export function benchArgs<V extends string, S extends string = never>(
  scriptUrl: string,
  valued: Readonly<Record<V, string>>,
  switches: readonly S[] = [],
  argv: readonly string[] = process.argv.slice(2),
): Readonly<Record<V, string> & Record<S, boolean>> {
  const path = fileURLToPath(scriptUrl);
  const name = basename(path);
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  const names = Object.keys(valued) as V[];
  for (const v of names) options[v] = { type: 'string' };
  for (const s of switches) options[s] = { type: 'boolean' };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }));
  } catch (err) {
    process.stderr.write(
      `${name}: ${err instanceof Error ? err.message : String(err)}. Run it with --help for its options.\n`,
    );
    process.exit(2);
  }
  if (values.help === true) {
    const header = headerComment(readFileSync(path, 'utf8'));
    process.stdout.write(
      `${header ?? `${name}: options ${[...names, ...switches].map((o) => `--${o}`).join(', ')}`}\n`,
    );
    process.exit(0);
  }
  const out: Record<string, string | boolean> = {};
  for (const v of names) {
    const given = values[v];
    out[v] = typeof given === 'string' ? given : valued[v];
  }
  for (const s of switches) out[s] = values[s] === true;
  return out as Record<V, string> & Record<S, boolean>;
}

/**
 * The value `text` of option `--name` as a positive integer; anything else is refused (exit code 2)
 * with the script's name, as {@link benchArgs} refuses an unknown option.
 *
 * @example
 * positiveInt(import.meta.url, 'dim', args.dim); // 20 for '20'; '0' or '2.5' exits with a message
 */
export function positiveInt(scriptUrl: string, name: string, text: string): number {
  const v = Number(text);
  if (Number.isSafeInteger(v) && v >= 1) return v;
  process.stderr.write(
    `${basename(fileURLToPath(scriptUrl))}: --${name} takes a positive integer. Got ${text}.\n`,
  );
  process.exit(2);
}
