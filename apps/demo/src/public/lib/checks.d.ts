// The page imports /lib/checks.js, the browser build of src/inputs.ts (see tsup.config.ts).
export * from '../../inputs.js';
