/** A 4xx/5xx answer of the decision service: its status, stable code and message. */
export class AdaPrivateClientError extends Error {
  override readonly name = 'AdaPrivateClientError';
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
