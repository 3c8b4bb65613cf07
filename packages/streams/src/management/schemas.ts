/**
 * Resources of the streams interface (wire field names) and the input rules its calls share.
 *
 * Where the spec says a shape is "not shown", the schema promises nothing it cannot keep: every
 * field is optional and unknown fields pass through. One choice is the client's own: a Bitcoin
 * stream must carry its `id`, since every other Bitcoin call needs it.
 */
import { nonEmptyString, nonNegativeInteger, type Paging, withMeta } from '@blockwire/core/operations';
import * as z from 'zod/v4';
import { EXAMPLE_STREAM_ID } from './examples.js';

export const STREAM_STATUSES = ['active', 'paused', 'error', 'terminated'] as const;
export const SETTINGS_REGIONS = ['us-east-1', 'us-west-2', 'eu-central-1', 'ap-southeast-1'] as const;

export const streamStatusSchema = z
  .enum(STREAM_STATUSES, { error: `must be one of ${STREAM_STATUSES.join(', ')}` })
  .meta({ description: 'The stream’s status: active, paused, error or terminated.' });
export type StreamStatus = z.output<typeof streamStatusSchema>;

export const settingsRegionSchema = z
  .enum(SETTINGS_REGIONS, { error: `must be one of ${SETTINGS_REGIONS.join(', ')}` })
  .meta({ description: 'The region webhooks are sent from.' });
export type SettingsRegion = z.output<typeof settingsRegionSchema>;

// --- input building blocks ---

/** An EVM stream id: the spec requires a UUID v4. */
export const evmStreamIdSchema = z
  .string({ error: 'must be a string' })
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i, {
    error: 'must be a UUID v4, e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6',
  })
  .meta({
    title: 'Stream ID',
    description: 'The EVM stream’s id (a UUID v4).',
    examples: ['6f0c1b7e-2f4a-4c35-9a51-8e2d3c4b5a61'],
  });

/** A Bitcoin stream id. The spec only says "string"; the service issues UUIDs, of any version here. */
export const bitcoinStreamIdSchema = z
  .string({ error: 'must be a string' })
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    error: 'must be a stream id (a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6)',
  })
  .meta({
    title: 'Stream ID',
    description: 'The Bitcoin stream’s id (a UUID), as create and list return it.',
    examples: [EXAMPLE_STREAM_ID],
  });

/** The URL the service POSTs deliveries to. The service itself requires a public HTTPS one. */
export const webhookUrlSchema = z
  .string({ error: 'must be a string' })
  // A URL parser drops surrounding whitespace, tabs and newlines and encodes other control
  // characters, so such a value would pass below and be stored as typed: refuse it first.
  .refine(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
    (value) => value === value.trim() && !/[\u0000-\u001f\u007f]/.test(value),
    {
      error: 'must not start or end with whitespace or contain control characters (a pasted newline?)',
      abort: true,
    },
  )
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    },
    { error: 'must be an http(s) URL, e.g. https://example.com/webhooks/bitcoin' },
  )
  .meta({
    title: 'Webhook URL',
    description: 'Where the service POSTs deliveries. The service requires a public HTTPS URL.',
    examples: ['https://example.com/webhooks/bitcoin'],
  });

const MAINNET_ONLY = 'must be ["mainnet"]: Bitcoin streams watch mainnet only';

/** The Bitcoin network list: the service accepts exactly `["mainnet"]`. */
export const bitcoinNetworkSchema = z
  .array(z.string(), { error: MAINNET_ONLY })
  .refine((networks) => networks.length === 1 && networks[0] === 'mainnet', { error: MAINNET_ONLY })
  .transform((): ['mainnet'] => ['mainnet'])
  .meta({
    description: 'The networks to watch: exactly ["mainnet"], the only one served.',
    options: [{ name: 'Mainnet', value: 'mainnet' }],
  });

const flag = z.boolean({ error: 'must be true or false' });
const text = z.string({ error: 'must be a string' });

/** The settings of a Bitcoin stream, as `createBitcoinStream` and `updateBitcoinStream` send them. */
export const bitcoinStreamConfigShape = {
  webhookUrl: webhookUrlSchema,
  description: text.meta({ description: 'A description of the stream, for people.' }).optional(),
  tag: text
    .meta({ description: 'A label every delivery carries, for routing or filtering by the receiver.' })
    .optional(),
  network: bitcoinNetworkSchema.optional(),
  includeInputs: flag
    .meta({ description: 'Include each transaction’s inputs (vin) in deliveries.' })
    .optional(),
  includeOutputs: flag
    .meta({ description: 'Include each transaction’s outputs (vout) in deliveries.' })
    .optional(),
  allAddresses: flag
    .meta({
      description: 'Deliver every transaction of the network, not only those of the watched addresses.',
    })
    .optional(),
};

/** The chain segment of the Bitcoin block calls; the service serves `mainnet`. */
export const bitcoinChainIdSchema = withMeta(nonEmptyString, {
  title: 'Chain ID',
  description: 'The Bitcoin chain: mainnet.',
  examples: ['mainnet'],
  // The one chain served, offered as a choice (the service's contract types it as any string).
  options: [{ name: 'Mainnet', value: 'mainnet' }],
});

/** A Bitcoin block height; a digit string also works (path segments carry text). */
export const blockNumberSchema = withMeta(nonNegativeInteger, {
  description: 'The block height.',
  examples: [880001],
});

/** Page size of the Bitcoin list calls; a digit string also works (query strings carry text). */
export const pageLimitSchema = withMeta(nonNegativeInteger, { description: 'The most records on one page.' });
export const cursorSchema = z
  .string({ error: 'must be a string (the cursor of the previous page)' })
  .meta({ description: 'The cursor the previous page returned, to get the next page.' });

/** The page size and cursor every Bitcoin list call takes, both in the query. */
export const cursorPageInput = { limit: z.optional(pageLimitSchema), cursor: cursorSchema.optional() };

/** How every Bitcoin list call pages: the cursor of the answer asks for the next page. */
export const CURSOR_PAGING = {
  style: 'cursor',
  cursorField: 'cursor',
  limitField: 'limit',
  nextCursor: 'cursor',
  items: 'result',
} as const satisfies Paging;

// --- responses ---

const dateTime = z.string();

/**
 * Marks a response shape the spec does not show (JSON Schema keyword `x-blockwire-fields`, in the
 * OpenAPI document too): its typed fields say what a field is when it comes, not that it comes.
 * The emulator's conformance test reads it (`@blockwire/testing/contract`) and promises no more.
 */
const NOT_SHOWN = { 'x-blockwire-fields': 'not shown' } as const;

/** An EVM stream, with the spec's required fields required. */
export const evmStreamSchema = z.looseObject({
  webhookUrl: z.string(),
  description: z.string(),
  chainIds: z.array(z.string()),
  id: z.string(),
  status: streamStatusSchema,
  statusMessage: z.string(),
  updatedAt: dateTime,
  amountOfAddresses: z.number(),
  tag: z.string().optional(),
  topic0: z.array(z.string()).nullable().optional(),
  allAddresses: z.boolean().optional(),
  includeNativeTxs: z.boolean().optional(),
  includeContractLogs: z.boolean().optional(),
  includeInternalTxs: z.boolean().optional(),
  includeAllTxLogs: z.boolean().optional(),
  getNativeBalances: z.array(z.looseObject({ selectors: z.array(z.string()).optional() })).optional(),
  abi: z.unknown().optional(),
  advancedOptions: z.unknown().optional(),
  filterPossibleSpamAddresses: z.boolean().optional(),
  demo: z.boolean().optional(),
  triggers: z
    .array(
      z.looseObject({
        contractAddress: z.string().optional(),
        functionAbi: z.looseObject({}).optional(),
        inputs: z.array(z.string()).optional(),
        topic0: z.string().optional(),
        callFrom: z.string().optional(),
      }),
    )
    .nullable()
    .optional(),
});
export type EvmStream = z.output<typeof evmStreamSchema>;

/** Project settings; both fields optional in requests and responses. */
export const projectSettingsSchema = z.looseObject({
  region: settingsRegionSchema.optional(),
  secretKey: z.string().optional(),
});
export type ProjectSettings = z.output<typeof projectSettingsSchema>;

/** A Bitcoin stream. The spec marks no field required; `id` is required here (see the top of this file). */
export const bitcoinStreamSchema = z.looseObject({
  id: z.string(),
  allAddresses: z.boolean().optional(),
  demo: z.boolean().optional(),
  description: z.string().optional(),
  includeInputs: z.boolean().optional(),
  includeOutputs: z.boolean().optional(),
  isErrorSince: dateTime.nullable().optional(),
  network: z.array(z.string()).optional(),
  status: streamStatusSchema.optional(),
  statusMessage: z.string().optional(),
  tag: z.string().optional(),
  webhookUrl: z.string().optional(),
  amountOfAddresses: z.number().optional(),
  updatedAt: dateTime.optional(),
});
export type BitcoinStream = z.output<typeof bitcoinStreamSchema>;

export const bitcoinStreamListSchema = z.looseObject({
  total: z.number(),
  result: z.array(bitcoinStreamSchema),
});
export type BitcoinStreamList = z.output<typeof bitcoinStreamListSchema>;

/** An address watched by a Bitcoin stream. Its fields are not shown in the spec. */
export const bitcoinStreamAddressSchema = z.looseObject({ address: z.string().optional() }).meta(NOT_SHOWN);
export type BitcoinStreamAddress = z.output<typeof bitcoinStreamAddressSchema>;

/** An xpub attached to a Bitcoin stream; `id` is what `removeBitcoinStreamXpub` takes. Not shown in the spec. */
export const bitcoinStreamXpubSchema = z
  .looseObject({
    id: z.string().optional(),
    xpub: z.string().optional(),
    streamId: z.string().optional(),
    addressType: z.string().optional(),
    receiveAddresses: z.array(z.string()).optional(),
    changeAddresses: z.array(z.string()).optional(),
  })
  .meta(NOT_SHOWN);
export type BitcoinStreamXpub = z.output<typeof bitcoinStreamXpubSchema>;

/** A page of a Bitcoin stream's addresses or xpubs. The shape is not shown: every field is optional. */
function pageOf<T extends z.ZodType>(item: T) {
  return z
    .looseObject({
      total: z.number().optional(),
      cursor: z.string().nullable().optional(),
      result: z.array(item).optional(),
    })
    .meta(NOT_SHOWN);
}

export const bitcoinStreamAddressPageSchema = pageOf(bitcoinStreamAddressSchema);
export type BitcoinStreamAddressPage = z.output<typeof bitcoinStreamAddressPageSchema>;

export const bitcoinStreamXpubPageSchema = pageOf(bitcoinStreamXpubSchema);
export type BitcoinStreamXpubPage = z.output<typeof bitcoinStreamXpubPageSchema>;

/**
 * The webhook data of a historical block, as a delivery would carry it. Only the fields the spec
 * names are typed, all optional; the webhook kit has the full payload schema.
 */
export const bitcoinBlockWebhookDataSchema = z
  .looseObject({
    streamId: z.string().optional(),
    chainId: z.string().optional(),
    confirmed: z.boolean().optional(),
    retries: z.number().optional(),
    block: z
      .looseObject({
        height: z.union([z.string(), z.number()]).optional(),
        hash: z.string().optional(),
      })
      .optional(),
    transactions: z
      .array(
        z.looseObject({
          txid: z.string().optional(),
          vin: z.array(z.looseObject({})).optional(),
          vout: z
            .array(
              z.looseObject({
                /** `nulldata` marks an OP_RETURN output. */
                scriptPubKey: z.looseObject({ type: z.string().optional() }).optional(),
              }),
            )
            .optional(),
        }),
      )
      .optional(),
  })
  .meta(NOT_SHOWN);
export type BitcoinBlockWebhookData = z.output<typeof bitcoinBlockWebhookDataSchema>;

/**
 * Answers of the calls whose response the spec does not show: a JSON object (the fields the
 * service is known to send typed when present; others kept) or no body at all. A bare string,
 * number or array is not such an answer, and fails as one.
 */
/** What adding or removing one address answers. */
export const bitcoinStreamAddressChangeSchema = z
  .looseObject({
    streamId: z.string().optional(),
    address: z.union([z.string(), z.array(z.string())]).optional(),
    amountOfAddresses: z.number().optional(),
  })
  .meta(NOT_SHOWN)
  .optional();
export type BitcoinStreamAddressChange = z.output<typeof bitcoinStreamAddressChangeSchema>;

/** What attaching or detaching an xpub answers: the xpub record. */
export const bitcoinStreamXpubChangeSchema = bitcoinStreamXpubSchema.optional();
export type BitcoinStreamXpubChange = z.output<typeof bitcoinStreamXpubChangeSchema>;

/** What deleting a stream or changing its status answers: the stream, as far as it is shown. */
export const bitcoinStreamChangeSchema = bitcoinStreamSchema.partial().meta(NOT_SHOWN).optional();
export type BitcoinStreamChange = z.output<typeof bitcoinStreamChangeSchema>;

/** What replaying a block answers: what was queued for delivery. */
export const bitcoinBlockReplaySchema = z
  .looseObject({
    streamId: z.string().optional(),
    chainId: z.string().optional(),
    blockNumber: z.union([z.number(), z.string()]).optional(),
    confirmed: z.boolean().optional(),
    transactionCount: z.number().optional(),
  })
  .meta(NOT_SHOWN)
  .optional();
export type BitcoinBlockReplay = z.output<typeof bitcoinBlockReplaySchema>;
