import type { Command } from 'commander';

/** Registers the `data` command group (not yet implemented). */
export function registerData(_program: Command): void {}
