/**
 * The service's one JSON text parser: JSON bodies and the JSON header of a binary rank body
 * (./binaryRank.ts) go through it, so prototype-poisoning keys are refused by one rule everywhere.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Fastify's parser signature: `done` gets the value, or the error to answer with (400). */
export type JsonTextParser = (
  req: FastifyRequest,
  text: string,
  done: (err: Error | null, value?: unknown) => void,
) => void;

/**
 * Fastify's JSON parser of `app` (secure-json-parse: "__proto__" and "constructor" keys refused),
 * with a fast path. That parser scans the whole text with two regular expressions for those keys,
 * literal or \u-escaped (~5 us for a 20 KB rank body). A text that contains neither word and no \u
 * escape cannot hold such a key, so JSON.parse alone parses it (to the same value); every other
 * text, and every text JSON.parse refuses, goes to Fastify's parser, which answers as it always did.
 *
 * @example
 * const parse = jsonTextParser(app);
 * app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
 *   parse(req, String(body), done),
 * );
 */
export function jsonTextParser(app: FastifyInstance): JsonTextParser {
  const secure = app.getDefaultJsonParser('error', 'error');
  return (req, text, done) => {
    if (
      text.length > 0 &&
      !text.includes('__proto__') &&
      !text.includes('constructor') &&
      !text.includes('\\u')
    ) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        secure(req, text, done);
        return;
      }
      done(null, value);
      return;
    }
    secure(req, text, done);
  };
}
