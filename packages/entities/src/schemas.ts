import { integerLike, pathSegment } from '@blockwire/core/operations';
import * as z from 'zod/v4';

/** Optional fields may also arrive as `null` from the real service; both mean "not known". */
const optionalString = z.string().nullish();
const optionalBoolean = z.boolean().nullish();
const optionalInteger = z.number().int().nullish();

/** An id that goes into the URL as one path segment: core's rule refuses what would change the path. */
export const pathSegmentId = pathSegment;

/** An address labelled as belonging to an entity. */
export const entityAddressSchema = z.looseObject({
  address: optionalString,
  chain: optionalString,
  is_multi_chain: optionalBoolean,
  primary_label: optionalString,
  additional_labels: z.array(z.array(z.string())).nullish(),
});
export type EntityAddress = z.output<typeof entityAddressSchema>;

const entityFields = {
  name: optionalString,
  /** A slug-like id, e.g. `binance`. */
  id: optionalString,
  logo: optionalString,
  bio: optionalString,
  description: optionalString,
  website: optionalString,
  twitter: optionalString,
  /** Kind of entity, e.g. `exchange`. */
  type: optionalString,
};

/** An entity in a category listing or a search result. The category listing adds `total_addresses`. */
export const entitySummarySchema = z.looseObject({
  ...entityFields,
  total_addresses: optionalInteger,
});
export type EntitySummary = z.output<typeof entitySummarySchema>;

/** One entity with its addresses, as entity-by-id returns it. */
export const entitySchema = z.looseObject({
  ...entityFields,
  addresses: z.array(entityAddressSchema).nullish(),
});
export type Entity = z.output<typeof entitySchema>;

/** A category; `total_entities` comes with the category listing only. */
export const categorySchema = z.looseObject({
  name: optionalString,
  id: optionalString,
  total_entities: optionalInteger,
});
export type Category = z.output<typeof categorySchema>;

/** An address matched by a search, with the entity it belongs to. */
export const searchAddressSchema = z.looseObject({
  address: optionalString,
  chain: optionalString,
  is_multi_chain: optionalBoolean,
  primary_label: optionalString,
  entity: z.looseObject({ name: optionalString, id: optionalString }).nullish(),
});
export type SearchAddress = z.output<typeof searchAddressSchema>;

/** `page` / `page_size` are documented as integers, but real services send strings too. */
const pageNumber = z.nullish(integerLike).transform((value) => value ?? undefined);

/** A page of results: `page` and `pageSize` are numbers, or `undefined` when the service leaves them out. */
export type Page<R> = {
  result: R;
  page: number | undefined;
  pageSize: number | undefined;
  /** Fields the contract does not list are kept. */
  [field: string]: unknown;
};

/**
 * The page envelope `{ result, page, page_size }`, exposed as {@link Page} with numbers.
 * The declared return type keeps zod's internal types out of the published `.d.ts`, which must
 * compile against zod 3.25's `zod/v4` (n8n) as well as zod 4.
 */
export function pageOf<T extends z.ZodType>(result: T): z.ZodType<Page<z.output<T>>> {
  return z
    .looseObject({ result, page: pageNumber, page_size: pageNumber })
    .transform(({ page_size, ...rest }) => ({ ...rest, pageSize: page_size }) as Page<z.output<T>>);
}

/** A list the contract shows but does not promise; missing or null reads as empty. */
function listOf<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((value) => value ?? []);
}

/** The contract's search hits carry neither the listing's `total_addresses` nor its `total_entities`. */
export const searchResultSchema = z.looseObject({
  entities: listOf(entitySummarySchema.omit({ total_addresses: true })),
  addresses: listOf(searchAddressSchema),
  categories: listOf(categorySchema.omit({ total_entities: true })),
});
export type SearchResult = z.output<typeof searchResultSchema>;

export const searchEntitiesResponseSchema = pageOf(searchResultSchema);
export type SearchEntitiesResponse = z.output<typeof searchEntitiesResponseSchema>;

export const entityCategoriesResponseSchema = pageOf(z.array(categorySchema));
export type EntityCategoriesResponse = z.output<typeof entityCategoriesResponseSchema>;

export const entitiesByCategoryResponseSchema = pageOf(listOf(entitySummarySchema));
export type EntitiesByCategoryResponse = z.output<typeof entitiesByCategoryResponseSchema>;
