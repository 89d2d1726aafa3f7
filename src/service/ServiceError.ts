/**
 * An error the API answers with a 4xx status, a stable `code` and a one-line message (never a
 * stack trace). The codes are listed in docs/serving.md.
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly statusCode: number;
  readonly code: string;

  constructor(statusCode: number, code: string, message: string) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
  }
}
