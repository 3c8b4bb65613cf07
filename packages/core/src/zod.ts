/**
 * Parsing with zod's core, so that nothing here needs classic zod (whose bundle is three times
 * mini's). Classic zod sets English messages when it is imported; mini sets none, so the first
 * parse sets them, unless a program chose a locale of its own.
 */

import type { $ZodType, output, util } from 'zod/v4/core';
import { config, safeParse as coreSafeParse } from 'zod/v4/core';
import { en } from 'zod/v4/locales';

let localeChecked = false;

/** `schema.safeParse(input)`, for classic and mini schemas alike, with zod's English messages. */
export function safeParse<S extends $ZodType>(schema: S, input: unknown): util.SafeParseResult<output<S>> {
  if (!localeChecked) {
    localeChecked = true;
    if (!config().localeError) config(en());
  }
  return coreSafeParse(schema, input);
}
