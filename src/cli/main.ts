#!/usr/bin/env node
/**
 * The `adaprivate` command-line program. Each command group lives in its own module under
 * `commands/` and registers itself on the root program.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.js';

/** Registers one top-level command (with its subcommands) on the root program. */
type Registrar = (program: Command) => Promise<void>;

/**
 * The top-level commands (the names each module registers) in the order `--help` lists them, each
 * loaded only when needed: a run of
 * one command (e.g. `serve`, started many times by a supervisor or a test) imports that command's
 * modules alone instead of every command's (the experiments, data and evaluation code cost about
 * 0.35 CPU-s to load that `serve` never uses).
 */
const COMMANDS: ReadonlyArray<readonly [readonly string[], Registrar]> = [
  [['privacy'], async (p) => (await import('./commands/privacy.js')).registerPrivacy(p)],
  [['run'], async (p) => (await import('./commands/run.js')).registerRun(p)],
  [
    ['reproduce'],
    async (p) => {
      const [base, realData, users, exact] = await Promise.all([
        import('./commands/reproduce.js'),
        import('./commands/reproduceRealData.js'),
        import('./commands/reproduceUsers.js'),
        import('./commands/reproduceExact.js'),
      ]);
      const reproduce = base.registerReproduce(p);
      realData.registerReproduceRealData(reproduce);
      users.addReproduceUsers(reproduce);
      users.addReproduceMovielensUsers(reproduce);
      exact.addReproduceExact(reproduce);
      exact.addReproduceMovielensExact(reproduce);
    },
  ],
  [['data'], async (p) => (await import('./commands/data.js')).registerData(p)],
  [['bench'], async (p) => (await import('./commands/bench.js')).registerBench(p)],
  [['evaluate', 'logs'], async (p) => (await import('./commands/evaluate.js')).registerEvaluate(p)],
  [['audit'], async (p) => (await import('./commands/audit.js')).registerAudit(p)],
  [['serve'], async (p) => (await import('./commands/serve.js')).registerServe(p)],
  [
    ['migrate'],
    async (p) => {
      const [migrate, snapshot] = await Promise.all([
        import('./commands/migrate.js'),
        import('./commands/migrateSnapshot.js'),
      ]);
      snapshot.registerMigrateSnapshot(migrate.registerMigrate(p));
    },
  ],
];

/**
 * The root program. With `argv`, when its first word names a command, only that command is
 * registered; otherwise (no command, `help`, a misspelt command, `--help`) all of them are, so the
 * help and the "unknown command" suggestions list every command.
 */
export async function buildProgram(argv?: readonly string[]): Promise<Command> {
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
  const first = argv?.find((a) => !a.startsWith('-'));
  const one = COMMANDS.find(([names]) => first !== undefined && names.includes(first));
  for (const [, register] of one !== undefined ? [one] : COMMANDS) await register(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = await buildProgram(argv);
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
