/**
 * The rank routes' bodies in one place ({@link rankBodyRoute}): a context of its own per rank route,
 * with the binary body's parser (src/service/binaryRank.ts) and the fast JSON reader
 * (src/service/rankJson.ts), and the route parts that take JSON or the binary body (a schema per
 * media type, the guard that refuses every other media type, the OpenAPI document's view of the body
 * as bytes).
 */
import type {
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
  preValidationHookHandler,
  RouteShorthandOptions,
} from 'fastify';
import type { TSchema } from 'typebox';
import { BINARY_RANK_TYPE, BinaryRankError } from '../binaryRank.js';
import { type JsonTextParser, jsonTextParser } from '../jsonBody.js';
import { FAST_RANK_JSON } from '../rankJson.js';
import { ServiceError } from '../ServiceError.js';

/**
 * Registers the parser of `application/x-adaprivate-rank` bodies on `app` (a rank route's context):
 * `decode` gets the bytes and the service's JSON parser `jsonParser` (../jsonBody.ts:
 * prototype-poisoning keys refused) for the header; a malformed body is a 400 `invalid_binary_body`
 * saying why.
 */
function binaryBodyParser(
  app: FastifyInstance,
  decode: (body: Uint8Array, parseJson: (text: string) => unknown) => unknown,
  jsonParser: JsonTextParser,
): void {
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

/** What a validator compiler is given, and what it answers (Fastify's types, by way of the compiler's). */
type SchemaDef = Parameters<FastifySchemaCompiler<FastifySchema>>[0];
type Validator = ReturnType<FastifySchemaCompiler<FastifySchema>>;

/**
 * JSON bodies of `app` (a context holding the rank route alone) through `fast` (../rankJson.ts)
 * first: the body is read as bytes; what `fast` reads (non-null) is the route's body, and every other
 * body goes to the service's JSON parser `parseJson` as before (so does a body on which `fast`
 * throws, which it should never do).
 */
function fastJsonParser(
  app: FastifyInstance,
  fast: (body: Uint8Array) => object | null,
  parseJson: JsonTextParser,
): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    let value: object | null = null;
    try {
      value = fast(bytes);
    } catch (err) {
      // a fault of the fast reader never changes an answer: the usual path reads the body
      req.log.error({ err }, 'rank JSON fast path failed; the body goes to JSON.parse');
    }
    if (value !== null) done(null, value);
    else parseJson(req, bytes.toString('utf8'), done);
  });
}

/**
 * The body validator of a route whose JSON body may come from the fast path: a body marked
 * {@link FAST_RANK_JSON} is checked against `header` (the binary body's header schema: the request
 * without features, which the fast path checked as the JSON schema does), every other one against
 * `json`, both compiled by the app's validator compiler (when first used: Fastify sets it up once
 * the routes are in). The route's other parts (params, the binary body) get the app's compiler.
 */
function fastJsonValidatorCompiler(
  app: FastifyInstance,
  json: TSchema,
  header: TSchema,
): (def: SchemaDef) => Validator {
  const compile = (def: SchemaDef): Validator => {
    const base = app.validatorCompiler;
    if (base === undefined)
      throw new Error('fastJsonValidatorCompiler: the app has no validator compiler yet.');
    return base(def);
  };
  const lazy = (def: SchemaDef): (() => Validator) => {
    let fn: Validator | null = null;
    return () => {
      fn ??= compile(def);
      return fn;
    };
  };
  return (def) => {
    const plain = lazy(def);
    const fastBody =
      def.httpPart === 'body' && def.contentType === 'application/json' && def.schema === json
        ? lazy({ ...def, schema: header, contentType: BINARY_RANK_TYPE })
        : null;
    const validate: Validator = (data: unknown) => {
      const fn =
        fastBody !== null && typeof data === 'object' && data !== null && FAST_RANK_JSON in data
          ? fastBody()
          : plain();
      const out = fn(data);
      validate.errors = fn.errors ?? null;
      return out;
    };
    return validate;
  };
}

/** How a rank route's body is read and checked (see {@link rankBodyRoute}). */
export interface RankBodyParts {
  /** Decodes a binary body, given the bytes and the service's JSON parser for its header. */
  readonly decode: (body: Uint8Array, parseJson: (text: string) => unknown) => unknown;
  /** The schema of the JSON body. */
  readonly json: TSchema;
  /** The schema of a binary body's header (and of a JSON body the fast reader took). */
  readonly header: TSchema;
  /** The binary layout, for the OpenAPI document. */
  readonly layout: string;
  /** The fast JSON reader (../rankJson.ts): the body packed, or null for the usual path. */
  readonly fast: (body: Uint8Array) => object | null;
}

/** What {@link rankBodyRoute} hands the route: parts to spread into its options and its schema's `body`. */
export interface RankRouteParts {
  readonly route: Pick<RouteShorthandOptions, 'config' | 'preValidation' | 'validatorCompiler'>;
  readonly body: {
    readonly content: {
      readonly 'application/json': { readonly schema: TSchema };
      readonly [BINARY_RANK_TYPE]: { readonly schema: TSchema };
    };
  };
}

/**
 * Registers a rank route through `register`, in a context of its own on `app`, whose body is `json`
 * as JSON or, as a binary rank body, a header checked by `header` (`layout` describes the bytes in
 * the OpenAPI document). The context's parsers are the binary body's (`decode`) and, for JSON, the
 * fast reader first (`fast`): a context of its own, so that no other route's JSON goes through them.
 *
 * @example
 * await rankBodyRoute(app, parts, (rank, body) =>
 *   rank.post('/models/:name/rank', { ...body.route, schema: { body: body.body } }, handler),
 * );
 */
export async function rankBodyRoute(
  app: FastifyInstance,
  parts: RankBodyParts,
  register: (ctx: FastifyInstance, body: RankRouteParts) => void,
): Promise<void> {
  const { decode, json, header, layout, fast } = parts;
  await app.register(async (ctx) => {
    const parseJson = jsonTextParser(ctx);
    binaryBodyParser(ctx, decode, parseJson);
    fastJsonParser(ctx, fast, parseJson);
    // a schema per media type: Fastify checks no body of a type not listed, so only these two parse
    const preValidation: preValidationHookHandler = (req, _reply, done) => {
      if (req.mediaType === 'application/json' || req.mediaType === BINARY_RANK_TYPE) done();
      else
        done(
          new ServiceError(
            415,
            'unsupported_media_type',
            `send JSON (Content-Type: application/json) or a binary rank body (${BINARY_RANK_TYPE}).`,
          ),
        );
    };
    const route: RankRouteParts['route'] = {
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
      preValidation,
      validatorCompiler: fastJsonValidatorCompiler(ctx, json, header),
    };
    const body = {
      content: { 'application/json': { schema: json }, [BINARY_RANK_TYPE]: { schema: header } },
    };
    register(ctx, { route, body });
  });
}
