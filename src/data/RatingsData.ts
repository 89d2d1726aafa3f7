import type { RatingsFormat } from './RatingsFormat.js';

/**
 * Ratings loaded from a file, as parallel typed arrays (no per-rating objects). Users and items are
 * re-indexed densely in order of first appearance: rating r is (users[r], items[r], ratings[r]),
 * and the original ids are userIds[users[r]] and itemIds[items[r]].
 */
export interface RatingsData {
  readonly source: string;
  readonly format: RatingsFormat;
  /** Number of ratings. */
  readonly count: number;
  readonly users: Int32Array;
  readonly items: Int32Array;
  readonly ratings: Float32Array;
  /** Original user id of each dense user index (Jester-1: the 1-based row number). */
  readonly userIds: Int32Array;
  /** Original item id of each dense item index (Jester-1: the joke number 1..100). */
  readonly itemIds: Int32Array;
  /** Rows skipped as malformed (only with `skipBadRows`; otherwise the load fails on the first). */
  readonly badRows: number;
  /** The first few skipped rows' messages (file:line: reason), at most 10. */
  readonly badRowExamples: readonly string[];
  /** Lines read, header included. */
  readonly lines: number;
}
