// Test helper: the mpmath reference values of the exact accountant
// (test/fixtures/privacy/exact_reference.py -> exact_reference.json; how they were computed is in its header).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ExactReference {
  readonly gdp: readonly { mu: number; delta: number; epsilon: string; deltaAtEpsilon1: string }[];
  readonly gdpCalibration: readonly { epsilon: number; delta: number; mu: string; sigma: string }[];
  readonly userLevel: readonly {
    epsilon: number;
    delta: number;
    contributions: number;
    participations: number;
    sigma: string;
  }[];
  readonly subsampled: readonly {
    q: number;
    sigma: number;
    delta: number;
    epsilon: string;
    deltaRemoveAtEps: string;
    deltaAddAtEps: string;
  }[];
  readonly issueCalibrations: readonly { epsilon: number; q: number; sigma: string }[];
  readonly twoSubsampled: readonly {
    q: number;
    sigma: number;
    compositions: number;
    delta: number;
    epsilon: string;
  }[];
  readonly discreteTv: readonly { s: number; tv: string }[];
}

let cached: ExactReference | null = null;

/** Reads the reference file (tests run from the repository root). */
export function loadExactReference(): ExactReference {
  if (cached === null) {
    cached = JSON.parse(
      readFileSync(join(process.cwd(), 'test/fixtures/privacy/exact_reference.json'), 'utf8'),
    ) as ExactReference;
  }
  return cached;
}
