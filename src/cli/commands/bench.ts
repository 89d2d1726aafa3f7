import type { Command } from 'commander';

/** Registers the `bench` command group (not yet implemented). */
export function registerBench(_program: Command): void {}
