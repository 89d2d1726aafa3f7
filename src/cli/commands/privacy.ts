import type { Command } from 'commander';

/** Registers the `privacy` command group (not yet implemented). */
export function registerPrivacy(_program: Command): void {}
