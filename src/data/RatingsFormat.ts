import { basename } from 'node:path';

/**
 * The rating-file layouts adaprivate reads (SPEC section 5).
 * - `movielens-csv`: ml-25m / ml-latest(-small) `ratings.csv`: header `userId,movieId,rating,timestamp`,
 *   ratings 0.5-5 in half stars, LF or CRLF.
 * - `movielens-dat`: ml-1m / ml-10m `ratings.dat`: `UserID::MovieID::Rating::Timestamp`, no header.
 * - `movielens-100k`: ml-100k `u.data`: `user<TAB>item<TAB>rating<TAB>timestamp`, no header.
 * - `jester-1`: Jester dataset 1 (xls exported as CSV): no header, one row per user, column 1 = number
 *   of jokes rated, columns 2-101 = jokes 1-100, ratings -10..10, 99 = not rated.
 * - `jester-2`: Jester dataset 2 `jester_ratings.dat`: `user item rating`, whitespace separated.
 */
export type RatingsFormat = 'movielens-csv' | 'movielens-dat' | 'movielens-100k' | 'jester-1' | 'jester-2';

/** Every supported format, in documentation order. */
export const RATINGS_FORMATS: readonly RatingsFormat[] = [
  'movielens-csv',
  'movielens-dat',
  'movielens-100k',
  'jester-1',
  'jester-2',
];

/** Facts about one format: the valid rating range and the default reward definition. */
export interface RatingsFormatInfo {
  readonly format: RatingsFormat;
  /** `movielens` or `jester`. */
  readonly family: 'movielens' | 'jester';
  readonly ratingMin: number;
  readonly ratingMax: number;
  /** Default reward: MovieLens 1{rating >= 4}; Jester rating scaled to [0, 1]. */
  readonly defaultRewardMode: 'threshold' | 'scaled';
  /** Default threshold of `threshold` mode (MovieLens 4, Jester 0). */
  readonly defaultThreshold: number;
}

/**
 * The facts of `format`.
 * @example
 * ratingsFormatInfo('movielens-csv').defaultThreshold; // returns 4
 */
export function ratingsFormatInfo(format: RatingsFormat): RatingsFormatInfo {
  if (format.startsWith('movielens')) {
    return {
      format,
      family: 'movielens',
      ratingMin: format === 'movielens-csv' ? 0.5 : 1,
      ratingMax: 5,
      defaultRewardMode: 'threshold',
      defaultThreshold: 4,
    };
  }
  return {
    format,
    family: 'jester',
    ratingMin: -10,
    ratingMax: 10,
    defaultRewardMode: 'scaled',
    defaultThreshold: 0,
  };
}

/** Parses a user-supplied format name, or throws naming the valid ones. */
export function parseRatingsFormat(raw: string): RatingsFormat {
  if ((RATINGS_FORMATS as readonly string[]).includes(raw)) return raw as RatingsFormat;
  throw new Error(`format must be one of ${RATINGS_FORMATS.join(', ')}. Got ${JSON.stringify(raw)}.`);
}

/**
 * Guesses the format from the file name (official names), or returns undefined.
 * @example
 * guessRatingsFormat('/data/ml-25m/ratings.csv'); // returns 'movielens-csv'
 */
export function guessRatingsFormat(file: string): RatingsFormat | undefined {
  const name = basename(file).toLowerCase();
  if (name === 'ratings.csv') return 'movielens-csv';
  if (name === 'ratings.dat') return 'movielens-dat';
  if (name === 'u.data') return 'movielens-100k';
  if (name.startsWith('jester_ratings')) return 'jester-2';
  if (/^jester-data-\d\.csv$/.test(name)) return 'jester-1';
  return undefined;
}
