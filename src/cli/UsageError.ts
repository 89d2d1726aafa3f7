/** An error in what the user asked for: the CLI prints its message on one line and exits with code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
