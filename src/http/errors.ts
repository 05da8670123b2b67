// The typed errors live in src/lib/errors.ts, where every layer may import them; this re-export keeps older
// imports compiling. The import rules (.dependency-cruiser.cjs) forbid it below src/http and src/routes.
export * from '../lib/errors.js';
