/**
 * The command line of a bench script, checked before it runs anything: `--help` (or `-h`) prints
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
 * Checks `argv` (default: this process's arguments) against the options a bench script takes:
 * `valued` take a value (`--duration 5`), `switches` none (`--json`). See the file comment.
 *
 * @param scriptUrl the script's `import.meta.url` (its name in messages, its header for --help)
 * @example
 * checkArgs(import.meta.url, ['rounds', 'duration', 'body'], ['replicas', 'json']);
 */
export function checkArgs(
  scriptUrl: string,
  valued: readonly string[],
  switches: readonly string[] = [],
  argv: readonly string[] = process.argv.slice(2),
): void {
  const path = fileURLToPath(scriptUrl);
  const name = basename(path);
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const v of valued) options[v] = { type: 'string' };
  for (const s of switches) options[s] = { type: 'boolean' };
  let help = false;
  try {
    const { values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false });
    help = values.help === true;
  } catch (err) {
    process.stderr.write(
      `${name}: ${err instanceof Error ? err.message : String(err)}. Run it with --help for its options.\n`,
    );
    process.exit(2);
  }
  if (!help) return;
  const header = headerComment(readFileSync(path, 'utf8'));
  process.stdout.write(
    `${header ?? `${name}: options ${[...valued, ...switches].map((o) => `--${o}`).join(', ')}`}\n`,
  );
  process.exit(0);
}
