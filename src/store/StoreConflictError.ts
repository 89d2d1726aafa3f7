/**
 * A write refused because the stored state moved on (for example a release whose version is not the
 * stored version + 1: that batch was already released). Nothing was written.
 */
export class StoreConflictError extends Error {
  override readonly name = 'StoreConflictError';
}
