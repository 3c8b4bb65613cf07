export { createClient } from './create-client.js';
export * from './public.js';

import { compileFieldChecker } from './compile-fields.js';
import { runtimeProblem } from './runtime.js';
import { useFieldCompiler } from './unchanged.js';

// On a Node.js too old, fail at import with one sentence, not later with a crash inside undici.
// (Nothing above runs undici at import: it is loaded on the first request.)
const unsupported = runtimeProblem();
if (unsupported) throw new Error(unsupported);

// With a runtime, large answers are checked by code compiled per shape (see compile-fields.ts).
useFieldCompiler(compileFieldChecker);

export { createUndiciTransport, type UndiciTransportOptions } from './runtime.js';
export { createFetchTransport, type FetchTransportOptions } from './transport-fetch.js';
