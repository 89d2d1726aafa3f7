/**
 * Thrown by calibration when no noise level meets the requested (epsilon, delta): the message
 * says why (e.g. the order grid's conversion term alone exceeds epsilon) and what would work.
 */
export class UnreachablePrivacyTargetError extends Error {
  override readonly name = 'UnreachablePrivacyTargetError';
  /** The smallest epsilon reachable with the given settings as sigma grows without bound. */
  readonly epsilonFloor: number;

  constructor(message: string, epsilonFloor: number) {
    super(message);
    this.epsilonFloor = epsilonFloor;
  }
}
