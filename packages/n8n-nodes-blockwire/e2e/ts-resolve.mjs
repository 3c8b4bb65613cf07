// `node --import ./e2e/ts-resolve.mjs script.ts`: plain Node strips the types of the workspace's
// TypeScript sources but does not map their `./x.js` imports (what tsc wants) to `./x.ts`.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (!specifier.startsWith('.') || !specifier.endsWith('.js')) throw error;
      return next(specifier.replace(/\.js$/, '.ts'), context);
    }
  },
});
