/**
 * A release the mechanisms room refused (the exact sampler cannot release the statistic at this
 * sensitivity and noise scale, or the statistic is not finite). Nothing was released: the noisy
 * value was never written anywhere the policy reads, the ledger is unchanged, and the message names
 * no value of the statistic.
 */
export class ReleaseRefusedError extends Error {
  /** What the release was (the ledger label it would have had). */
  readonly release: string;

  constructor(who: string, release: string, reason: string) {
    super(
      `${who}: the ${release} release was refused (${reason}); nothing was released, the ledger and the released state are unchanged.`,
    );
    this.name = 'ReleaseRefusedError';
    this.release = release;
  }
}
