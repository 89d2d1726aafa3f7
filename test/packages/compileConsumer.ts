/**
 * Test helper of the packed-package tests: compiles a consumer app's `tsconfig.json` with the
 * repository's TypeScript, in this process, and returns every diagnostic of the files that are ours
 * to check: the consumer's sources and the declaration files of the installed package(s) named in
 * `checked` (node_modules/<name>/...), fully type-checked as `skipLibCheck: false` would (plus the
 * options', global and syntax diagnostics of the whole program, and emit's). Declaration files of
 * other libraries (TypeScript's lib, @types/node, a dependency such as typebox) are type-checked only
 * as far as our files use their types: checking all of typebox's own type-level engine took ~37 of
 * the ~43 CPU-seconds of `tsc` in the client test and proved nothing about our packages.
 * Emits the JavaScript of the consumer's sources (outDir of the tsconfig).
 */
import { join, sep } from 'node:path';
import ts from 'typescript';

export function compileConsumer(app: string, checked: readonly string[]): string[] {
  const configPath = join(app, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  if (read.error) return [ts.flattenDiagnosticMessageText(read.error.messageText, '\n')];
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, app);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const ours = (f: ts.SourceFile): boolean => {
    const p = f.fileName.split('/').join(sep);
    if (!p.includes(`${sep}node_modules${sep}`)) return p.startsWith(app);
    return checked.some((name) => p.includes(`${sep}node_modules${sep}${name.split('/').join(sep)}${sep}`));
  };
  const diagnostics: ts.Diagnostic[] = [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
  ];
  const files = program.getSourceFiles().filter(ours);
  for (const f of files) diagnostics.push(...program.getSemanticDiagnostics(f));
  if (!files.some((f) => f.isDeclarationFile))
    diagnostics.push({
      category: ts.DiagnosticCategory.Error,
      code: 0,
      file: undefined,
      start: undefined,
      length: undefined,
      messageText: `no declaration file of ${checked.join(', ')} in the program`,
    });
  // emitting one file at a time: emit() of the whole program would type-check every file first
  for (const f of files) if (!f.isDeclarationFile) diagnostics.push(...program.emit(f).diagnostics);
  return diagnostics.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (d.file === undefined || d.start === undefined) return `TS${d.code}: ${text}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName}(${line + 1},${character + 1}): TS${d.code}: ${text}`;
  });
}
