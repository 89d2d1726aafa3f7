#!/usr/bin/env node
/**
 * The `adaprivate` command-line program. Each command group lives in its own module under
 * `commands/` and registers itself on the root program.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.js';
import { registerAudit } from './commands/audit.js';
import { registerBench } from './commands/bench.js';
import { registerData } from './commands/data.js';
import { registerEvaluate } from './commands/evaluate.js';
import { registerMigrate } from './commands/migrate.js';
import { registerMigrateSnapshot } from './commands/migrateSnapshot.js';
import { registerPrivacy } from './commands/privacy.js';
import { registerReproduce } from './commands/reproduce.js';
import { addReproduceExact, addReproduceMovielensExact } from './commands/reproduceExact.js';
import { registerReproduceRealData } from './commands/reproduceRealData.js';
import { addReproduceMovielensUsers, addReproduceUsers } from './commands/reproduceUsers.js';
import { registerRun } from './commands/run.js';
import { registerServe } from './commands/serve.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('adaprivate')
    .description(
      'Differentially private contextual bandits: AdaPrivate-TS, its baselines, zCDP/RDP accounting and the paper experiments.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .configureOutput({
      // one-line errors on stderr
      outputError: (str, write) => write(str.split('\n')[0] ? `${str.trim().split('\n')[0]}\n` : str),
    });
  registerPrivacy(program);
  registerRun(program);
  const reproduce = registerReproduce(program);
  registerReproduceRealData(reproduce);
  addReproduceUsers(reproduce);
  addReproduceMovielensUsers(reproduce);
  addReproduceExact(reproduce);
  addReproduceMovielensExact(reproduce);
  registerData(program);
  registerBench(program);
  registerEvaluate(program);
  registerAudit(program);
  registerServe(program);
  registerMigrateSnapshot(registerMigrate(program));
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  program.exitOverride();
  for (const cmd of program.commands) cmd.exitOverride();
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version exit with code 0; commander already printed the message
      return err.exitCode === 0 ? 0 : 2;
    }
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`adaprivate: ${msg.split('\n')[0]}\n`);
    if (process.env.ADAPRIVATE_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return err instanceof Error && err.name === 'UsageError' ? 2 : 1;
  }
}

function invokedDirectly(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`adaprivate: ${String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
