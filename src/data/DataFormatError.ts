/**
 * A malformed data file: the message names the file and the 1-based line number, e.g.
 * `ratings.csv:17: rating must be a number in [0.5, 5]. Got "abc".`
 */
export class DataFormatError extends Error {
  override readonly name = 'DataFormatError';

  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}
