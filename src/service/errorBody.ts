/** The body of every 4xx/5xx answer, and of every failed event in a batch answer. */
import type { ErrorBody } from './contract.js';

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * @example
 * errorBody(404, 'event_not_found', "eventId 'e1' has no decision in model 'm'.");
 * // returns { statusCode: 404, code: 'event_not_found', error: 'Not Found', message: ... }
 */
export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, code, error: STATUS_TEXT[statusCode] ?? 'Error', message };
}

/** The answer to an unexpected error (its stack is logged on the server, never sent). */
export function internalErrorBody(): ErrorBody {
  return errorBody(500, 'internal_error', 'internal error (logged on the server).');
}
