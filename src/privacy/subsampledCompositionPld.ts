/** Placeholder replaced by the PLD accountant in the next commit. */
import { UnsupportedPrivacyEventError } from './UnsupportedPrivacyEventError.js';

export interface SubsampledPart {
  readonly q: number;
  readonly noiseMultiplier: number;
  readonly count: number;
}

export function subsampledCompositionPld(
  _parts: readonly SubsampledPart[],
  _gaussianMuSquared: number,
): { epsilon(delta: number, discreteMuSquared: number): { upper: number; lower: number } } {
  throw new UnsupportedPrivacyEventError(
    'subsampledGaussian',
    'exact accountant',
    'compositions of subsampled Gaussians (PLD) are not available in this version; use the rdp accountant.',
  );
}
