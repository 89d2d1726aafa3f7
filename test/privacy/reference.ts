// Test helper: the mpmath reference values (test/fixtures/privacy/generate.py -> reference.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RdpCase {
  readonly q: number;
  readonly sigma: number;
  readonly order: number;
  readonly rdp: string;
}

export interface Reference {
  readonly integer: readonly RdpCase[];
  readonly fractional: readonly RdpCase[];
  readonly zcdp: readonly {
    readonly epsilon: number;
    readonly delta: number;
    readonly rhoClassic: string;
    readonly rhoCks: string;
  }[];
}

let cached: Reference | null = null;

/** Reads the reference file (tests run from the repository root). */
export function loadReference(): Reference {
  if (cached === null) {
    cached = JSON.parse(
      readFileSync(join(process.cwd(), 'test/fixtures/privacy/reference.json'), 'utf8'),
    ) as Reference;
  }
  return cached;
}

/** Asserts |got - expected| <= tol |expected| (+ abs), printing inputs, expected, got and tolerance. */
export function relClose(got: number, expected: number, tol: number, where: string, abs = 0): void {
  const err = Math.abs(got - expected);
  assert.ok(
    err <= tol * Math.abs(expected) + abs,
    `${where}: expected ${expected}, got ${got}, |diff|=${err}, tolerance rel ${tol} abs ${abs}`,
  );
}
