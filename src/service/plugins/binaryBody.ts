/**
 * The rank routes' binary body (src/service/binaryRank.ts) in one place: the content-type parser of
 * a plugin's routes, and the route parts that take JSON or the binary body (a schema per media type,
 * the guard that refuses every other media type, the OpenAPI document's view of the body as bytes).
 */
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { TSchema } from 'typebox';
import { BINARY_RANK_TYPE, BinaryRankError } from '../binaryRank.js';
import { jsonTextParser } from '../jsonBody.js';
import { ServiceError } from '../ServiceError.js';

/**
 * Registers the parser of `application/x-adaprivate-rank` bodies on `app` (a plugin's context):
 * `decode` gets the bytes and the service's JSON parser (../jsonBody.ts: prototype-poisoning keys refused)
 * for the header; a malformed body is a 400 `invalid_binary_body` saying why.
 */
function binaryBodyParser(
  app: FastifyInstance,
  decode: (body: Uint8Array, parseJson: (text: string) => unknown) => unknown,
): void {
  const jsonParser = jsonTextParser(app);
  const parseJson = (req: FastifyRequest, text: string): unknown => {
    let out: { err: Error | null; value?: unknown } = { err: null };
    jsonParser(req, text, (err, value) => {
      out = { err, value };
    });
    if (out.err !== null) {
      throw new ServiceError(
        400,
        'invalid_json',
        `${BINARY_RANK_TYPE}: the JSON header is not valid JSON, or it names a "__proto__" or "constructor" key.`,
      );
    }
    return out.value;
  };
  app.addContentTypeParser(BINARY_RANK_TYPE, { parseAs: 'buffer' }, (req, body, done) => {
    try {
      const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
      done(
        null,
        decode(bytes, (text) => parseJson(req, text)),
      );
    } catch (err) {
      done(
        err instanceof BinaryRankError
          ? new ServiceError(400, 'invalid_binary_body', `${BINARY_RANK_TYPE}: ${err.message}`)
          : err instanceof Error
            ? err
            : new Error(String(err)),
      );
    }
  });
}

/**
 * A route of `app` (a plugin's context, which gets the binary body's parser, `decode`) whose body is
 * `json` as JSON or, as a binary rank body, a header checked by `header` (`layout` describes the
 * bytes in the OpenAPI document): the parts to spread into the route's options and its schema's `body`.
 */
export function jsonOrBinaryBody(
  app: FastifyInstance,
  decode: (body: Uint8Array, parseJson: (text: string) => unknown) => unknown,
  json: TSchema,
  header: TSchema,
  layout: string,
) {
  binaryBodyParser(app, decode);
  const route: Pick<RouteShorthandOptions, 'config' | 'preValidation'> = {
    // the OpenAPI document shows the binary body as bytes (its header's schema is the check only)
    config: {
      swaggerTransform: ({ schema, url }) => ({
        url,
        schema: {
          ...schema,
          body: {
            content: {
              'application/json': { schema: json },
              [BINARY_RANK_TYPE]: { schema: { type: 'string', format: 'binary', description: layout } },
            },
          },
        },
      }),
    },
    // a schema per media type: Fastify checks no body of a type not listed, so only these two parse
    preValidation: (req, _reply, done) => {
      if (req.mediaType === 'application/json' || req.mediaType === BINARY_RANK_TYPE) done();
      else
        done(
          new ServiceError(
            415,
            'unsupported_media_type',
            `send JSON (Content-Type: application/json) or a binary rank body (${BINARY_RANK_TYPE}).`,
          ),
        );
    },
  };
  const body = { content: { 'application/json': { schema: json }, [BINARY_RANK_TYPE]: { schema: header } } };
  return { route, body };
}
