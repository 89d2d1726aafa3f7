// Runs the CLI in-process, capturing stdout and stderr (a helper of the CLI tests, not a test file).
import { main } from '../../src/cli/main.js';

export async function runCli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  // the CLI writes strings; bytes come from the test runner itself (its reporter's stream on the
  // child's stdout), which can write while an async command awaits: those pass through
  process.stdout.write = ((s: string | Uint8Array, ...rest: never[]) => {
    if (typeof s !== 'string') return out(s, ...rest);
    stdout += s;
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array, ...rest: never[]) => {
    if (typeof s !== 'string') return err(s, ...rest);
    stderr += s;
    return true;
  }) as typeof process.stderr.write;
  // a command that ends the process itself (commander does after a nested command's --help) would
  // end the test file early and silently: fail instead (main reports the throw as status 1)
  const exit = process.exit;
  process.exit = ((code?: number) => {
    throw new Error(`runCli: the command called process.exit(${code ?? ''}) in-process; spawn it instead`);
  }) as typeof process.exit;
  try {
    const status = await main(args);
    return { status, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    process.exit = exit;
  }
}
