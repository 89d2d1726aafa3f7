/**
 * Named blocks inside a generated Markdown document, delimited by HTML comments, so that several
 * commands can each own a part of one file (e.g. `reproduce jester` its section of
 * docs/REPRODUCTION.md) and regenerating one part keeps the others.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeAtomic } from '../writeAtomic.js';

const start = (id: string) => `<!-- section:${id}:start -->`;
const end = (id: string) => `<!-- section:${id}:end -->`;
const BLOCK = /<!-- section:([a-z0-9-]+):start -->\n[\s\S]*?<!-- section:\1:end -->\n?/g;

/**
 * Every marked block of `text`, in order, each with its markers (ready to append to another document).
 *
 * @example
 * markedSections('a\n<!-- section:x:start -->\nB\n<!-- section:x:end -->\n'); // returns ['<!-- section:x:start -->\nB\n<!-- section:x:end -->\n']
 */
export function markedSections(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((m) => (m[0].endsWith('\n') ? m[0] : `${m[0]}\n`));
}

/**
 * `text` with block `id` set to `content`: replaced in place when present, appended otherwise.
 *
 * @example
 * upsertSection('# Doc\n', 'x', 'B\n'); // returns '# Doc\n\n<!-- section:x:start -->\nB\n<!-- section:x:end -->\n'
 */
export function upsertSection(text: string, id: string, content: string): string {
  if (!/^[a-z0-9-]+$/.test(id))
    throw new Error(`upsertSection: id must match [a-z0-9-]+. Got ${JSON.stringify(id)}.`);
  const block = `${start(id)}\n${content.endsWith('\n') ? content : `${content}\n`}${end(id)}\n`;
  const i = text.indexOf(start(id));
  const j = text.indexOf(end(id));
  if (i >= 0 && j > i) {
    let k = j + end(id).length;
    if (text[k] === '\n') k++;
    return text.slice(0, i) + block + text.slice(k);
  }
  return `${text.endsWith('\n') ? text : `${text}\n`}\n${block}`;
}

/**
 * Sets block `id` of the Markdown file at `path` to `content` (atomically); does nothing when the file
 * does not exist. Returns whether the file was updated.
 *
 * @example
 * upsertSectionInFile('docs/REPRODUCTION.md', 'real-data-jester', section); // returns true
 */
export function upsertSectionInFile(path: string, id: string, content: string): boolean {
  if (!existsSync(path)) return false;
  writeAtomic(path, upsertSection(readFileSync(path, 'utf8'), id, content));
  return true;
}
