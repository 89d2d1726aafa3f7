/**
 * The HTTP contract of the decision service (/v1), defined once with TypeBox: each schema below
 * validates its request (Fastify + Ajv, no type coercion, unknown properties refused), documents it
 * in the OpenAPI 3.1 document at /openapi.json, and gives the TypeScript type of the same name
 * (`Static<...>`) that the server and `AdaPrivateClient` use. The decision-log line (the NDJSON
 * export, read by off-policy evaluation) is part of it, defined in `decisionLogSchema.ts` so that
 * evaluation validates with it without loading the HTTP contract.
 *
 * Two bodies are documented more precisely than Ajv checks them, because the service checks those
 * parts itself with messages and codes of their own: the per-policy `options` of a model (a
 * discriminated union on `policy`, generated from the policy schema table; checked by
 * `parsePolicySpec`: 400 `unknown_policy` / `invalid_options`) and a reward's range [0, 1] (checked by
 * `checkRewardRange`, 400 `reward_out_of_range`, for the single and the batch route alike).
 *
 * A new route: its schemas here, its handler in one plugin (plugins/), the plugin registered in
 * createServer.ts (when the plugin is new), a client method (src/client) and docs/serving.md.
 */
import Type, { type Static, type TNumber, type TSchema } from 'typebox';
import type { PolicyId, PolicyOptionsFor } from '../policies/index.js';
import { DecisionLogLine as DecisionLogLineSchema } from './decisionLogSchema.js';
import type { Frozen } from './Frozen.js';
import { everyPolicyOptionsSchema } from './policyOptionsSchema.js';

export type { Frozen } from './Frozen.js';

/** Limits on what one request may carry (defaults in {@link DEFAULT_LIMITS}). */
export interface ServiceLimits {
  /** Largest request body in bytes. */
  readonly bodyBytes: number;
  /** Most arms in one rank request. */
  readonly arms: number;
  /** Longest feature vector (the model's dim must not exceed it either). */
  readonly features: number;
  /** Most events in one batch request (rank/batch, rewards/batch). */
  readonly batch: number;
}

export const DEFAULT_LIMITS: ServiceLimits = {
  bodyBytes: 1_048_576,
  arms: 1000,
  features: 1000,
  batch: 1000,
};

// ---------------------------------------------------------------------------------------------
// Errors and parameters

/** Body of every 4xx/5xx response (`code` is stable; docs/serving.md lists them). */
export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.String({ description: "Stable machine-readable code, e.g. 'duplicate_reward'." }),
    error: Type.String(),
    message: Type.String(),
  },
  {
    $id: 'Error',
    description: 'Every 4xx and 5xx answer. `code` is stable (docs/serving.md lists them).',
    examples: [
      {
        statusCode: 404,
        code: 'event_not_found',
        error: 'Not Found',
        message: "eventId 'e1' has no decision in model 'news'.",
      },
    ],
  },
);
export type ErrorBody = Frozen<Static<typeof ErrorBody>>;
const errorRef = Type.Unsafe<ErrorBody>({ $ref: 'Error#' });

export const ModelNameParams = Type.Object({
  name: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
    description: 'Model name: 1-64 of A-Z a-z 0-9 . _ -, starting with a letter or digit.',
  }),
});
export type ModelNameParams = Static<typeof ModelNameParams>;

/**
 * The `response` map of a route: the success schema under its status, and the Error schema for
 * every 4xx and 5xx.
 */
export function responses<S extends TSchema>(ok: number, schema: S, description: string) {
  return { [ok]: { ...schema, description }, ...errorResponses };
}

/** The Error schema for every 4xx and 5xx answer of a route. */
export const errorResponses = { '4xx': errorRef, '5xx': errorRef } as const;

/**
 * Route `config` that puts `body` in the OpenAPI document in place of the route's validation schema
 * (see the file comment: the service checks the documented extra rules itself).
 */
export function documentedBody(body: TSchema) {
  return {
    swaggerTransform: ({ schema, url }: { schema: object; url: string }) => ({
      schema: { ...schema, body },
      url,
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Models

const settingsProperties = {
  rewardWindowSeconds: Type.Number({
    exclusiveMinimum: 0,
    maximum: 31_536_000,
    description: 'Seconds after a decision within which its reward is accepted (default 3600).',
  }),
  defaultReward: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
    description:
      'Reward in [0, 1] given to decisions whose reward never comes within the window; null (default): none.',
  }),
  duplicateRule: Type.Literal('first', { description: 'First reward wins (default and only rule).' }),
  logRewards: Type.Boolean({
    description:
      'Keep reward values for the decision export (default false: rewards are deleted at release).',
  }),
  logCandidates: Type.Boolean({
    description:
      "Keep every candidate arm's features for the decision export (default true). false: each decision stores only the chosen arm's features (what learning needs) and the export's other arms carry only their id; such an export cannot be evaluated off-policy (docs/serving.md, Stored decisions).",
  }),
  probabilitySamples: Type.Union([Type.Integer({ minimum: 1, maximum: 100_000 }), Type.Null()], {
    description:
      'Monte Carlo draws for the arm probabilities of Thompson-sampling policies; when set, every rank answers `probabilities`. null (default): only ranks with `withProbabilities: true` answer them (200 draws).',
  }),
  retainDecisionsDays: Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 36_500 }), Type.Null()], {
    description:
      "Days this model's decisions (features, chosen arm, probabilities, unit) are kept, overriding the server's --retain-decisions-days for this model; null (default): the server's. Deleting raw decisions releases nothing and spends no budget (docs/serving.md, Retention).",
  }),
};

/** The settings of a model (every one present in answers; each optional in a create request). */
export const ModelSettingsView = Type.Object(settingsProperties);
export type ModelSettingsView = Frozen<Static<typeof ModelSettingsView>>;

/** A policy's options as stored and answered (validated by the policy's schema at creation). */
const OptionsView = Type.Record(Type.String(), Type.Unknown(), {
  description: 'The policy options the model was created with (the seed included).',
});

/**
 * What Ajv checks of `PUT /v1/models/{name}`: a policy id string, an options object, the settings.
 * The documented body is {@link CreateModelBody}.
 */
export const CreateModelEnvelope = Type.Object(
  {
    policy: Type.String({ description: "Policy id, e.g. 'adaprivate-ts' (docs/policies.md)." }),
    options: Type.Record(Type.String(), Type.Unknown()),
    ...Type.Partial(Type.Object(settingsProperties)).properties,
  },
  { additionalProperties: false },
);
export type CreateModelEnvelope = Static<typeof CreateModelEnvelope>;

const EXAMPLE_CREATE = {
  policy: 'adaprivate-ts',
  options: { dim: 2, horizon: 100_000, epsilon: 1, batchSize: 300 },
  rewardWindowSeconds: 3600,
};

/**
 * Body of `PUT /v1/models/{name}` as documented: one alternative per policy id (a discriminated
 * union on `policy`), each with that policy's options, generated from the policy schema table.
 */
export const CreateModelBody = Type.Unsafe<CreateModelRequest>({
  oneOf: everyPolicyOptionsSchema().map(([id, options]) => ({
    type: 'object',
    title: id,
    additionalProperties: false,
    required: ['policy', 'options'],
    properties: {
      policy: { type: 'string', const: id },
      options,
      ...Type.Partial(Type.Object(settingsProperties)).properties,
    },
  })),
  discriminator: { propertyName: 'policy' },
  examples: [EXAMPLE_CREATE],
});

/** Options of policy `I` over HTTP: its library options, `seed` optional and `noiseSeed` refused. */
export type HttpPolicyOptions<I extends PolicyId> =
  PolicyOptionsFor<I> extends infer O
    ? O extends unknown
      ? Omit<O, 'seed' | 'noiseSeed'> & { readonly seed?: number }
      : never
    : never;

/** Body of `PUT /v1/models/{name}` for policy `I`. */
export type CreateModelRequestFor<I extends PolicyId> = {
  readonly policy: I;
  readonly options: HttpPolicyOptions<I>;
} & Partial<ModelSettingsView>;

/** Body of `PUT /v1/models/{name}`: one of {@link CreateModelRequestFor} over the policy ids. */
export type CreateModelRequest = { [I in PolicyId]: CreateModelRequestFor<I> }[PolicyId];

/**
 * What `AdaPrivateClient.createModel` takes for a body whose `policy` is `P`: a known policy id
 * literal gets that policy's typed options (a wrong or missing option is a compile error); a
 * policy only known at run time (`string`) gets an options object, checked by the server.
 */
export type CreateModelInput<P extends string> = P extends PolicyId
  ? CreateModelRequestFor<P>
  : {
      readonly policy: P;
      readonly options: { readonly [option: string]: unknown };
    } & Partial<ModelSettingsView>;

/** A model as created and listed. */
export const ModelView = Type.Object({
  name: Type.String(),
  created: Type.Boolean({ description: 'True when this request created the model.' }),
  policy: Type.String(),
  options: OptionsView,
  settings: ModelSettingsView,
});
/** Response of `PUT /v1/models/{name}` (201 created, 200 already existed with the same parameters). */
export type CreateModelResponse = Frozen<Static<typeof ModelView>>;

export const ModelList = Type.Object({ models: Type.Array(ModelView) });
export type ModelList = Frozen<Static<typeof ModelList>>;

/** One unit's guarantee over `compositions` releases. */
export const UnitGuaranteeView = Type.Object({
  epsilon: Type.Number(),
  delta: Type.Number(),
  rho: Type.Union([Type.Number(), Type.Null()]),
  compositions: Type.Integer(),
});
export type UnitGuaranteeView = Frozen<Static<typeof UnitGuaranteeView>>;

/**
 * The guarantee spent, from the ledger of releases. For a user-level model `epsilon` and `rho` are
 * one unit's cumulative guarantee over the epochs so far; `perEpoch`, `cumulative`, `bounds`,
 * `epoch`, `dropped` and `eventLevel` say the rest (absent for event-level models).
 */
export const PrivacyView = Type.Object(
  {
    epsilon: Type.Union([Type.Number(), Type.Null()], {
      description: 'Epsilon spent at `delta`; null when there is no finite guarantee (a non-private policy).',
    }),
    delta: Type.Number(),
    rho: Type.Union([Type.Number(), Type.Null()]),
    releases: Type.Integer(),
    composition: Type.String(),
    conversion: Type.String(),
    noise: Type.String(),
    unit: Type.Union([Type.Literal('event'), Type.Literal('user')], {
      description:
        "What is protected: 'event' (one reward) or 'user' (all rewards of one unit, within the bounds).",
    }),
    statement: Type.String({
      description: 'The guarantee in words, naming its unit and bounds (and what is not protected).',
    }),
    bounds: Type.Optional(
      Type.Object({ contributionsPerRelease: Type.Integer(), releasesPerEpoch: Type.Integer() }),
    ),
    epoch: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    perEpoch: Type.Optional(UnitGuaranteeView),
    cumulative: Type.Optional(UnitGuaranteeView),
    dropped: Type.Optional(
      Type.Object(
        { perRelease: Type.Integer(), perEpoch: Type.Integer(), total: Type.Integer() },
        {
          description: 'Rewards acknowledged but not learned (the unit was past a bound), from the database.',
        },
      ),
    ),
    eventLevel: Type.Optional(
      Type.Object({ epsilon: Type.Number(), rho: Type.Union([Type.Number(), Type.Null()]) }),
    ),
  },
  { additionalProperties: true },
);
export type PrivacyView = Frozen<Static<typeof PrivacyView>>;

/** Response of `GET /v1/models/{name}`. */
export const ModelStatus = Type.Object(
  {
    name: Type.String(),
    policy: Type.String(),
    options: OptionsView,
    settings: ModelSettingsView,
    createdAt: Type.String({ format: 'date-time' }),
    modelVersion: Type.Integer(),
    rounds: Type.Integer({ description: 'Rounds learned (rewards applied, released or pending).' }),
    decisions: Type.Integer(),
    pendingRewards: Type.Integer(),
    releasedRewards: Type.Integer(),
    defaultRewards: Type.Integer(),
    batchesReleased: Type.Integer(),
    private: Type.Boolean({
      description:
        'False for a non-private policy (linucb, lints): then `guarantee` says so and `privacy` holds no guarantee.',
    }),
    guarantee: Type.String({
      description: 'The guarantee in words: what is protected, or that nothing is (non-private policies).',
    }),
    privacy: PrivacyView,
    budget: Type.Object({
      boundedByHorizon: Type.Boolean({
        description:
          'True for policies whose guarantee is calibrated for `horizon` rounds (they stop learning after it).',
      }),
      horizon: Type.Integer(),
      roundsLeft: Type.Union([Type.Integer(), Type.Null()]),
      target: Type.Union(
        [
          Type.Object({
            epsilon: Type.Union([Type.Number(), Type.Null()]),
            delta: Type.Union([Type.Number(), Type.Null()]),
          }),
          Type.Null(),
        ],
        { description: 'The configured target (epsilon, delta), or null for non-private policies.' },
      ),
      learning: Type.Boolean(),
      note: Type.String(),
    }),
    clippedFeatures: Type.Integer({
      description:
        'Feature vectors clipped to unit norm since the last release (restored from the snapshot on restart).',
    }),
  },
  { additionalProperties: true },
);
export type ModelStatus = Frozen<Static<typeof ModelStatus>>;

// ---------------------------------------------------------------------------------------------
// Decisions

/** The longest event id and arm id, and the longest unit, in characters (the fast JSON path reads these too). */
export const MAX_ID_LENGTH = 128;
export const MAX_UNIT_LENGTH = 256;

const eventId = Type.String({
  minLength: 1,
  maxLength: MAX_ID_LENGTH,
  description: 'Your id of this decision, unique per model.',
});
const unit = Type.String({
  minLength: 1,
  maxLength: MAX_UNIT_LENGTH,
  description:
    "The privacy unit of this event: the user or device id whose rewards a user-level model protects together (required by models with privacyUnit 'user'; logged with the decision otherwise; a reward naming one must name the rank's).",
});

const armId = Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH });

function armInput(limits: ServiceLimits) {
  return Type.Object(
    {
      id: armId,
      features: Type.Array(Type.Number(), {
        minItems: 1,
        maxItems: limits.features,
        description: "The model's dim finite numbers (vectors of norm > 1 are clipped to norm 1).",
      }),
    },
    { additionalProperties: false },
  );
}
/** One candidate arm of a rank request. */
export type ArmInput = Frozen<Static<ReturnType<typeof armInput>>>;

const EXAMPLE_RANK = {
  eventId: 'e-1',
  arms: [
    { id: 'a', features: [0.1, 0.2] },
    { id: 'b', features: [0.3, 0] },
  ],
};

/** The fields of a rank request, with `arm` the schema of one candidate. */
function rankFields<A extends TSchema>(limits: ServiceLimits, arm: A) {
  return {
    eventId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_ID_LENGTH,
        description:
          'Your id of this decision, unique per model; when absent the server makes one: a time-ordered UUID (version 7, RFC 9562), which shows the millisecond of the decision.',
      }),
    ),
    unit: Type.Optional(unit),
    withProbabilities: Type.Optional(
      Type.Boolean({
        description:
          "true: answer every arm's probability (`probabilities`, a Monte Carlo of the model's probabilitySamples, default 200, for Thompson-sampling policies). Default false: omitted unless the model was created with probabilitySamples. The decision log's inverse propensity is logged either way.",
      }),
    ),
    arms: Type.Array(arm, {
      minItems: 1,
      maxItems: limits.arms,
      description: `Candidate arms (1 to ${limits.arms}).`,
    }),
  };
}

/** Body of `POST /v1/models/{name}/rank` under `limits`. */
export function rankBody(limits: ServiceLimits) {
  return Type.Object(rankFields(limits, armInput(limits)), {
    additionalProperties: false,
    examples: [EXAMPLE_RANK],
  });
}

/**
 * The JSON header of a binary rank body (`application/x-adaprivate-rank`, src/service/binaryRank.ts)
 * under `limits`: the rank request's fields with `arms: [{ id }]`, the features being in the body's
 * Float64 block. The rank route checks a binary body's header with it.
 */
export function rankBinaryHeader(limits: ServiceLimits) {
  return Type.Object(rankFields(limits, Type.Object({ id: armId }, { additionalProperties: false })), {
    additionalProperties: false,
  });
}
/** The header of a binary rank body. */
export type RankBinaryHeader = Frozen<Static<ReturnType<typeof rankBinaryHeader>>>;

/** Body of `POST /v1/models/{name}/rank`. */
export type RankRequest = Frozen<Static<ReturnType<typeof rankBody>>>;

export const RankResponse = Type.Object({
  eventId: Type.String(),
  chosen: Type.Integer({ description: 'Index of the chosen arm in `arms`.' }),
  chosenId: Type.String(),
  probabilities: Type.Optional(
    Type.Array(Type.Number(), {
      description:
        'Probability of every arm under the policy when it decided (same order as `arms`); present when the rank asked for it (`withProbabilities`) or the model sets probabilitySamples.',
    }),
  ),
  probabilitySamples: Type.Optional(
    Type.Integer({
      description: 'Monte Carlo draws behind the probabilities (0: exact); with `probabilities`.',
    }),
  ),
  modelVersion: Type.Integer({
    description:
      'Releases committed when the decision was made (a policy that releases in its select, DGS-LinUCB, commits that release with this decision and answers its version).',
  }),
});
export type RankResponse = Frozen<Static<typeof RankResponse>>;

/** `?after=&limit=` of the decision export. */
export const ExportQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,15}$',
        description: 'Only decisions after this cursor (the `cursor` of the last line of the previous page).',
      }),
    ),
    limit: Type.Optional(
      Type.String({ pattern: '^[1-9][0-9]{0,7}$', description: 'At most this many lines (default: all).' }),
    ),
  },
  { additionalProperties: false },
);
export type ExportQuery = Static<typeof ExportQuery>;

/**
 * One line of the NDJSON decision export (the decision-log format read by off-policy evaluation,
 * docs/evaluation.md). Defined in `decisionLogSchema.ts`, with the log line evaluation reads, from
 * one rule per field; re-exported here as part of the HTTP contract.
 */
export const DecisionLogLine = DecisionLogLineSchema;
export type DecisionLogLine = Frozen<Static<typeof DecisionLogLineSchema>>;

// ---------------------------------------------------------------------------------------------
// Rewards

/** The reward's domain, [0, 1] (documented here; checked by `checkRewardRange` for every route). */
const rewardDocumented = Type.Number({ minimum: 0, maximum: 1, description: 'The reward, in [0, 1].' });

function rewardItem<R extends TNumber>(reward: R) {
  return Type.Object(
    {
      eventId,
      reward,
      unit: Type.Optional(unit),
    },
    { additionalProperties: false, examples: [{ eventId: 'e-1', reward: 1 }] },
  );
}
/** Body of `POST /v1/models/{name}/rewards` (what Ajv checks: the range is `checkRewardRange`'s). */
export const RewardBody = rewardItem(Type.Number({ description: 'The reward, in [0, 1].' }));
/** Body of `POST /v1/models/{name}/rewards` as documented. */
export const RewardBodyDocumented = rewardItem(rewardDocumented);
export type RewardRequest = Frozen<Static<typeof RewardBody>>;

export const RewardResponse = Type.Object({
  eventId: Type.String(),
  status: Type.Literal('recorded', {
    description: "Always 'recorded' (errors are 4xx). The reward is durable when this answer is sent.",
  }),
  released: Type.Boolean({
    description: 'This reward completed a batch; its release was committed with it.',
  }),
  modelVersion: Type.Integer(),
  dropped: Type.Optional(
    Type.Union([Type.Literal('perRelease'), Type.Literal('perEpoch')], {
      description:
        "User-level models: the reward was acknowledged but not learned, its unit being past a contribution bound ('perRelease': c rewards in the open release; 'perEpoch': m releases in the epoch).",
    }),
  ),
});
export type RewardResponse = Frozen<Static<typeof RewardResponse>>;

// ---------------------------------------------------------------------------------------------
// Batches

/** A rank/batch body whose events have the schema `event`. */
function rankBatchWith<E extends TSchema>(limits: ServiceLimits, event: E) {
  return Type.Object(
    {
      events: Type.Array(event, {
        minItems: 1,
        maxItems: limits.batch,
        description: `1 to ${limits.batch} rank requests, decided in this order.`,
      }),
    },
    { additionalProperties: false },
  );
}

/** Body of rank/batch: 1 to `limits.batch` rank requests, each as the rank route's body. */
export function rankBatchBody(limits: ServiceLimits) {
  return rankBatchWith(limits, rankBody(limits));
}

/** The JSON header of a binary rank/batch body: `events`, each a {@link rankBinaryHeader}. */
export function rankBatchBinaryHeader(limits: ServiceLimits) {
  return rankBatchWith(limits, rankBinaryHeader(limits));
}
/** Body of `POST /v1/models/{name}/rank/batch`: events ranked in order, each as by the rank route. */
export type RankBatchRequest = Frozen<Static<ReturnType<typeof rankBatchBody>>>;

/**
 * Body of rewards/batch: 1 to `limits.batch` rewards. A reward outside [0, 1] fails its own event
 * (reward_out_of_range), as the rewards route would, not the whole request.
 */
function rewardBatchWith<T extends TSchema>(limits: ServiceLimits, item: T) {
  return Type.Object(
    {
      rewards: Type.Array(item, {
        minItems: 1,
        maxItems: limits.batch,
        description: `1 to ${limits.batch} rewards, recorded in this order.`,
      }),
    },
    { additionalProperties: false },
  );
}
export function rewardBatchBody(limits: ServiceLimits) {
  return rewardBatchWith(limits, RewardBody);
}
export function rewardBatchBodyDocumented(limits: ServiceLimits) {
  return rewardBatchWith(limits, RewardBodyDocumented);
}
/** Body of `POST /v1/models/{name}/rewards/batch`: rewards recorded in order, each as by the rewards route. */
export type RewardBatchRequest = { readonly rewards: readonly RewardRequest[] };

/** One event of a batch that succeeded: what the single-event route would have answered. */
export type BatchSuccess<T> = T & { readonly ok: true; readonly statusCode: 200 };
/**
 * One event of a batch that failed: the error the single-event route would have answered (its
 * statusCode and stable code), and the event id when the request gave one. Nothing of it was applied.
 */
export type BatchFailure = ErrorBody & { readonly ok: false; readonly eventId?: string };
/** One result per event of a batch, in the request's order. */
export type BatchResult<T> = BatchSuccess<T> | BatchFailure;

/** `results` of a batch answer: one item per event, in order, `ok` true with the success fields or false with the error's. */
function batchResponse(success: TSchema & { readonly properties: Readonly<Record<string, TSchema>> }) {
  const failure = Type.Object({
    ok: Type.Literal(false),
    statusCode: Type.Integer({ description: 'The status the single-event route would have answered.' }),
    code: Type.String({ description: 'The stable error code.' }),
    error: Type.String(),
    message: Type.String(),
    eventId: Type.Optional(Type.String()),
  });
  const ok = Type.Object({
    ok: Type.Literal(true),
    statusCode: Type.Literal(200),
    ...success.properties,
  });
  return Type.Object({ results: Type.Array(Type.Union([ok, failure])) });
}
export const RankBatchResponse = batchResponse(RankResponse);
export const RewardBatchResponse = batchResponse(RewardResponse);
/** Response of `POST /v1/models/{name}/rank/batch`. */
export type RankBatchResponse = { readonly results: readonly BatchResult<RankResponse>[] };
/** Response of `POST /v1/models/{name}/rewards/batch`. */
export type RewardBatchResponse = { readonly results: readonly BatchResult<RewardResponse>[] };

// ---------------------------------------------------------------------------------------------
// Ledger and health

export const LedgerEntryView = Type.Object({
  version: Type.Integer(),
  time: Type.String({ format: 'date-time' }),
  rewards: Type.Integer(),
  releases: Type.Integer(),
  rounds: Type.Integer(),
  spent: Type.Record(Type.String(), Type.Unknown(), { description: 'The guarantee after this release.' }),
});
export type LedgerEntryView = Frozen<Static<typeof LedgerEntryView>>;

export const LedgerResponse = Type.Object({
  name: Type.String(),
  releases: Type.Array(LedgerEntryView),
  privacy: PrivacyView,
  deletedAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description: "Set when the model was deleted: this is its tombstone's kept ledger.",
    }),
  ),
});
export type LedgerResponse = Frozen<Static<typeof LedgerResponse>>;

// ---------------------------------------------------------------------------------------------
// Deletion (docs/serving.md, "Deleting a model")

export const DeleteModelQuery = Type.Object(
  {
    purge: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description:
          "'true': purge the model and its ledger (needs confirm); default 'false': a tombstone that keeps the ledger.",
      }),
    ),
    confirm: Type.Optional(
      Type.String({ description: 'With purge=true: the model name again (the purge is refused otherwise).' }),
    ),
  },
  { additionalProperties: false },
);
export type DeleteModelQuery = Static<typeof DeleteModelQuery>;

export const DeleteModelResponse = Type.Object({
  name: Type.String(),
  outcome: Type.Union([Type.Literal('deleted'), Type.Literal('purged'), Type.Literal('already-deleted')], {
    description:
      "'deleted': now a tombstone (ledger kept); 'purged': model and ledger removed; 'already-deleted': it was a tombstone already (nothing changed).",
  }),
  ledgerKept: Type.Boolean({ description: 'True when the ledger is kept (tombstone).' }),
  deletedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the tombstone was made; null after a purge.',
  }),
  erased: Type.Object(
    {
      decisions: Type.Integer(),
      pendingRewards: Type.Integer(),
      unitCounts: Type.Integer(),
      ledgerRows: Type.Integer(),
    },
    { description: 'Rows this call erased.' },
  ),
});
export type DeleteModelResponse = Frozen<Static<typeof DeleteModelResponse>>;

/**
 * A route's `serializerCompiler` that writes answers with JSON.stringify: for answers whose schema
 * documents them (a test checks real answers against it) but must not drop or coerce a field.
 */
export const plainJsonSerializer = () => (data: unknown) => JSON.stringify(data);

export const HealthResponse = Type.Object({
  status: Type.String(),
  engine: Type.String(),
  version: Type.String(),
});
export type HealthResponse = Frozen<Static<typeof HealthResponse>>;
