/** The instrumentation scope every tracer and meter of this package is named by. */
declare const __BLOCKWIRE_VERSION__: string | undefined;

export const SCOPE = '@blockwire/opentelemetry';
export const VERSION = typeof __BLOCKWIRE_VERSION__ === 'string' ? __BLOCKWIRE_VERSION__ : 'dev';
