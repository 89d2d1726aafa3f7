/**
 * Thrown when an accountant is handed an event it cannot account for (for example a subsampled
 * Gaussian given to the zCDP accountant, or an unknown event kind). Such an event is never
 * counted as free.
 */
export class UnsupportedPrivacyEventError extends Error {
  override readonly name = 'UnsupportedPrivacyEventError';
  /** The `kind` of the refused event, as found (may be an unknown string). */
  readonly eventKind: string;
  /** Which accountant refused it, e.g. 'zCDP accountant'. */
  readonly accountant: string;

  constructor(eventKind: string, accountant: string, reason: string) {
    super(`${accountant} cannot account for a privacy event of kind ${JSON.stringify(eventKind)}: ${reason}`);
    this.eventKind = eventKind;
    this.accountant = accountant;
  }
}
