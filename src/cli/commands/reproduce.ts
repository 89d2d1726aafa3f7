import type { Command } from 'commander';

/** Registers the `reproduce` command group (not yet implemented). */
export function registerReproduce(_program: Command): void {}
