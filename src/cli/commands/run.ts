import type { Command } from 'commander';

/** Registers the `run` command group (not yet implemented). */
export function registerRun(_program: Command): void {}
