#!/usr/bin/env node
// Counts type assertions in src/ with the TypeScript parser (not a grep): `x as T` expressions,
// split into `as const` and the rest (`as never`, `as unknown as T` count once per `as`), plus
// `<T>x` assertions and non-null `!` assertions, and the textual occurrences of
// `Record<string, unknown>`. Usage: node scripts/count-casts.mjs [dir] [--files]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 'src';
const perFile = process.argv.includes('--files');
const files = [];
const walk = (d) => {
  for (const n of readdirSync(d).sort()) {
    const p = join(d, n);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(ts|tsx|mts)$/.test(n) && !n.endsWith('.d.ts')) files.push(p);
  }
};
walk(root);
const total = { as: 0, asConst: 0, asNever: 0, angle: 0, nonNull: 0, record: 0 };
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
  const c = { as: 0, asConst: 0, asNever: 0, angle: 0, nonNull: 0, record: 0 };
  const visit = (n) => {
    if (ts.isAsExpression(n)) {
      const t = n.type.getText(sf);
      if (t === 'const') c.asConst++;
      else {
        c.as++;
        if (t === 'never') c.asNever++;
      }
    } else if (ts.isTypeAssertionExpression(n)) c.angle++;
    else if (ts.isNonNullExpression(n)) c.nonNull++;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  c.record = (text.match(/Record<string, unknown>/g) ?? []).length;
  for (const k of Object.keys(total)) total[k] += c[k];
  if (perFile && (c.as > 0 || c.record > 0)) console.log(`${f}\tas ${c.as}\tRecord ${c.record}`);
}
console.log(
  JSON.stringify({
    files: files.length,
    asCasts: total.as,
    asNever: total.asNever,
    asConst: total.asConst,
    angleCasts: total.angle,
    nonNull: total.nonNull,
    recordStringUnknown: total.record,
  }),
);
