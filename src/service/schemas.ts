/**
 * JSON schemas of the API: they validate each request (Fastify + Ajv, no type coercion, unknown
 * properties refused) and generate the OpenAPI document at /openapi.json.
 */

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

export const errorSchema = {
  $id: 'Error',
  type: 'object',
  description: 'Every 4xx and 5xx answer. `code` is stable (docs/serving.md lists them).',
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    error: { type: 'string' },
    message: { type: 'string' },
  },
  required: ['statusCode', 'code', 'error', 'message'],
} as const;

export const modelNameParams = {
  type: 'object',
  properties: {
    name: {
      type: 'string',
      pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
      description: 'Model name: 1-64 of A-Z a-z 0-9 . _ -, starting with a letter or digit.',
    },
  },
  required: ['name'],
} as const;

const settingsProperties = {
  rewardWindowSeconds: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 31_536_000,
    description: 'Seconds after a decision within which its reward is accepted (default 3600).',
  },
  defaultReward: {
    type: ['number', 'null'],
    minimum: 0,
    maximum: 1,
    description:
      'Reward given to decisions whose reward never comes within the window; null (default): none.',
  },
  duplicateRule: {
    type: 'string',
    enum: ['first'],
    description: 'First reward wins (default and only rule).',
  },
  logRewards: {
    type: 'boolean',
    description:
      'Keep reward values for the decision export (default false: rewards are deleted at release).',
  },
  probabilitySamples: {
    type: 'integer',
    minimum: 1,
    maximum: 100_000,
    description: 'Monte Carlo draws for the arm probabilities of Thompson-sampling policies (default 200).',
  },
} as const;

export const createModelBody = {
  type: 'object',
  additionalProperties: false,
  required: ['policy', 'options'],
  properties: {
    policy: { type: 'string', description: "Policy id, e.g. 'adaprivate-ts' (docs/policies.md)." },
    options: {
      type: 'object',
      description:
        'Policy options: dim, horizon, epsilon (or rho), delta, batchSize, ... (docs/policies.md). seed is optional (secure when absent); noiseSeed is refused.',
    },
    ...settingsProperties,
  },
} as const;

export const modelView = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    created: { type: 'boolean' },
    policy: { type: 'string' },
    options: { type: 'object', additionalProperties: true },
    settings: { type: 'object', properties: settingsProperties },
  },
} as const;

export const deleteModelQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    purge: {
      type: 'string',
      enum: ['true', 'false'],
      description:
        "'true': purge the model and its ledger (needs confirm); default 'false': a tombstone that keeps the ledger.",
    },
    confirm: {
      type: 'string',
      description: 'With purge=true: the model name again (the purge is refused otherwise).',
    },
  },
} as const;

const erasedCounts = {
  type: 'object',
  properties: {
    decisions: { type: 'integer' },
    pendingRewards: { type: 'integer' },
    unitCounts: { type: 'integer' },
    ledgerRows: { type: 'integer' },
  },
  required: ['decisions', 'pendingRewards', 'unitCounts', 'ledgerRows'],
} as const;

export const deleteModelView = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    outcome: { type: 'string', enum: ['deleted', 'purged', 'already-deleted'] },
    ledgerKept: { type: 'boolean' },
    deletedAt: { type: ['string', 'null'] },
    erased: erasedCounts,
  },
  required: ['name', 'outcome', 'ledgerKept', 'deletedAt', 'erased'],
} as const;

export function rankBody(limits: ServiceLimits) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['arms'],
    properties: {
      eventId: {
        type: 'string',
        minLength: 1,
        maxLength: 128,
        description: 'Your id of this decision, unique per model; a UUID is generated when absent.',
      },
      unit: {
        type: 'string',
        minLength: 1,
        maxLength: 256,
        description:
          "The privacy unit of this event: the user or device id whose rewards a user-level model protects together (required by models with privacyUnit 'user'; logged with the decision otherwise).",
      },
      arms: {
        type: 'array',
        minItems: 1,
        maxItems: limits.arms,
        description: `Candidate arms (1 to ${limits.arms}).`,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'features'],
          properties: {
            id: { type: 'string', minLength: 1, maxLength: 128 },
            features: {
              type: 'array',
              minItems: 1,
              maxItems: limits.features,
              items: { type: 'number' },
              description: "The model's dim finite numbers (vectors of norm > 1 are clipped to norm 1).",
            },
          },
        },
      },
    },
  } as const;
}

export const rankResponse = {
  type: 'object',
  properties: {
    eventId: { type: 'string' },
    chosen: { type: 'integer', description: 'Index of the chosen arm in `arms`.' },
    chosenId: { type: 'string' },
    probabilities: { type: 'array', items: { type: 'number' }, description: 'Probability of every arm.' },
    probabilitySamples: {
      type: 'integer',
      description: 'Monte Carlo draws behind the probabilities (0: exact).',
    },
    modelVersion: { type: 'integer', description: 'Releases committed when the decision was made.' },
  },
} as const;

export const rewardBody = {
  type: 'object',
  additionalProperties: false,
  required: ['eventId', 'reward'],
  properties: {
    eventId: { type: 'string', minLength: 1, maxLength: 128 },
    reward: { type: 'number', minimum: 0, maximum: 1, description: 'The reward, in [0, 1].' },
    unit: {
      type: 'string',
      minLength: 1,
      maxLength: 256,
      description:
        "The privacy unit of the event (optional; when the rank named one, this must be the same). A user-level model learns the reward only within its unit's contribution bounds.",
    },
  },
} as const;

export const rewardResponse = {
  type: 'object',
  properties: {
    eventId: { type: 'string' },
    status: { type: 'string', enum: ['recorded'] },
    released: {
      type: 'boolean',
      description: 'This reward completed a batch; its release was committed with it.',
    },
    modelVersion: { type: 'integer' },
    dropped: {
      type: 'string',
      enum: ['perRelease', 'perEpoch'],
      description:
        "User-level models: the reward was acknowledged but not learned, its unit being past a contribution bound ('perRelease': c rewards in the open release; 'perEpoch': m releases in the epoch).",
    },
  },
} as const;

export const exportQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    after: {
      type: 'string',
      pattern: '^[0-9]{1,15}$',
      description: 'Only decisions after this cursor (the `cursor` of the last line of the previous page).',
    },
    limit: {
      type: 'string',
      pattern: '^[1-9][0-9]{0,7}$',
      description: 'At most this many lines (default: all).',
    },
  },
} as const;

/** `response` map of a route: the success schema plus the error schema for 4xx/5xx. */
export function responses(ok: number, schema: object, description: string) {
  return {
    [ok]: { description, ...schema },
    '4xx': { $ref: 'Error#' },
    '5xx': { $ref: 'Error#' },
  };
}

/** Body of rank/batch: 1 to `limits.batch` rank requests, each as the rank route's body. */
export function rankBatchBody(limits: ServiceLimits) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['events'],
    properties: {
      events: {
        type: 'array',
        minItems: 1,
        maxItems: limits.batch,
        description: `1 to ${limits.batch} rank requests, decided in this order.`,
        items: rankBody(limits),
      },
    },
  } as const;
}

/**
 * Body of rewards/batch: 1 to `limits.batch` rewards. A reward outside [0, 1] fails its own event
 * (reward_out_of_range), as the rewards route would, not the whole request.
 */
export function rewardBatchBody(limits: ServiceLimits) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['rewards'],
    properties: {
      rewards: {
        type: 'array',
        minItems: 1,
        maxItems: limits.batch,
        description: `1 to ${limits.batch} rewards, recorded in this order.`,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['eventId', 'reward'],
          properties: {
            eventId: rewardBody.properties.eventId,
            reward: { type: 'number', description: 'The reward, in [0, 1].' },
            unit: rewardBody.properties.unit,
          },
        },
      },
    },
  } as const;
}

/** The fields of a failed event in a batch answer (those of the Error schema, plus ok and eventId). */
const batchFailureProperties = {
  ok: {
    type: 'boolean',
    description: 'true: the event succeeded; false: it failed and nothing of it was applied.',
  },
  statusCode: {
    type: 'integer',
    description: '200, or the status the single-event route would have answered.',
  },
  code: { type: 'string', description: 'Failed events: the stable error code.' },
  error: { type: 'string' },
  message: { type: 'string' },
} as const;

/** `results` of a batch answer: one item per event, in order, holding `ok` and the success or error fields. */
function batchResponse(success: { readonly properties: object }) {
  return {
    type: 'object',
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: { ...batchFailureProperties, ...success.properties },
          required: ['ok', 'statusCode'],
        },
      },
    },
  } as const;
}

export const rankBatchResponse = batchResponse(rankResponse);
export const rewardBatchResponse = batchResponse(rewardResponse);
