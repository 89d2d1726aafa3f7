/**
 * The exact-accounting result at the top of a reproduction document: its sections of
 * `reproduce exact` / `reproduce movielens-exact` (marked blocks `exact-accounting-*`) sit at the
 * end, so the document's opening bottom line is followed by one generated paragraph that repeats
 * each such section's headline (the first sentence of its own bottom line). Every writer of a
 * document calls this last, so the paragraph follows the sections whoever wrote them.
 */

const EXACT_BLOCK =
  /<!-- section:(exact-accounting-[a-z0-9-]+):start -->\n([\s\S]*?)<!-- section:\1:end -->/g;
const PARAGRAPH = /\*\*Exact accounting \(not in the paper\)\.\*\*[^\n]*\n\n/;

/** The first sentence of a section's `**Bottom line.**` paragraph (null: none). */
function headline(section: string): string | null {
  const m = /\*\*Bottom line\.\*\* ([^\n]*)/.exec(section);
  if (m === null) return null;
  // a sentence ends at '. ' followed by a capital letter (numbers like '0.6%' do not end one)
  const end = /\.(?= [A-Z])/.exec(m[1]!);
  return end === null ? m[1]!.trim() : m[1]!.slice(0, end.index + 1);
}

/**
 * `text` with the exact-accounting paragraph (re)placed after its first `**Bottom line.**`
 * paragraph: "**Exact accounting (not in the paper).** The paper calibrates its noise by zCDP (RDP
 * with amplification); calibrated by the exact privacy curve instead: at the same guarantee ...
 * (section "...")." built from the `exact-accounting-*` blocks of `text`
 * itself; without such a block any earlier paragraph is removed. Idempotent.
 *
 * @example
 * withExactAccountingLine(doc).includes('**Exact accounting (not in the paper).**'); // returns true when doc has an exact-accounting section
 */
export function withExactAccountingLine(text: string): string {
  const base = text.replace(PARAGRAPH, '');
  const found = [...base.matchAll(EXACT_BLOCK)]
    .map((m) => ({ title: /^## ([^\n]*)/m.exec(m[2]!)?.[1], line: headline(m[2]!) }))
    .filter((s): s is { title: string; line: string } => s.title !== undefined && s.line !== null);
  if (found.length === 0) return base;
  const top = /\*\*Bottom line\.\*\*[^\n]*\n\n/.exec(base);
  if (top === null) return base;
  const lower = (x: string) => x.charAt(0).toLowerCase() + x.slice(1).replace(/\.$/, '');
  const paragraph = `**Exact accounting (not in the paper).** The paper calibrates its noise by zCDP (RDP with amplification); calibrated by the exact privacy curve instead: ${found.map((s) => `${lower(s.line)} (section "${s.title}")`).join('; ')}.\n\n`;
  const at = top.index + top[0].length;
  return base.slice(0, at) + paragraph + base.slice(at);
}
