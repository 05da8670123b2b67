// The import rules, checked by `npm run lint` (scripts/check-imports.mjs runs dependency-cruiser with them).
// docs/architecture.md explains the layers; each rule below forbids one kind of arrow pointing the wrong way.
// Exemptions are written into the rules themselves (pathNot), each with its reason; there are no others.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import circles (type-only imports included): a circle makes load order matter and hides which of two ' +
        'files depends on the other. Break it by moving what both need into a third file below them.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'routes-not-store',
      severity: 'error',
      comment: 'A route declares parameters, calls an action and shapes JSON; the SQL is reached through actions (or, for reads, state).',
      from: { path: '^src/routes/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'store-is-the-bottom',
      severity: 'error',
      comment:
        'src/store/ is the only code with SQL and depends on nothing above it: not on actions, routes, HTTP, events, ' +
        'register state, permissions, formatting, or the process wiring (app, server, cli).',
      from: { path: '^src/store/' },
      to: { path: '^src/(actions|routes|http|events|state|permissions|format|app|server|cli)(/|\\.ts$)' },
    },
    {
      name: 'actions-not-routes-or-http',
      severity: 'error',
      comment: 'Actions do not know about HTTP: routes call them, never the other way. Errors come from src/lib/errors.ts.',
      from: { path: '^src/actions/' },
      to: { path: '^src/(routes|http)/' },
    },
    {
      name: 'http-is-the-top',
      severity: 'error',
      comment:
        'Below the HTTP layer (events, permissions, state, format, markdown, emoji, storage, lib, populate) nothing ' +
        'imports src/http/ -- src/http/errors.ts included, which only re-exports src/lib/errors.ts for older imports.',
      from: { path: '^src/(events|permissions|state|format|markdown|emoji|storage|lib|populate)/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'state-not-actions',
      severity: 'error',
      comment:
        'src/state/ (the register snapshot, a read path) builds its blocks itself; actions import from it, not ' +
        'the other way.',
      from: { path: '^src/state/' },
      to: { path: '^src/(actions|routes)/' },
    },
    {
      name: 'lower-layers-not-actions',
      severity: 'error',
      comment: 'Events, permissions, formatting and the libraries are used by actions and never call them.',
      from: { path: '^src/(events|permissions|format|markdown|emoji|storage|lib)/' },
      to: { path: '^src/(actions|routes)/' },
    },
    {
      name: 'lib-is-the-bottom',
      severity: 'error',
      comment:
        'src/lib/ holds what every layer may use (errors, text, limits, the guarded fetcher): it imports no layer. ' +
        'It may read the settings (src/config.ts), the version and, as types, the App it is given.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(actions|routes|http|events|permissions|state|format|markdown|emoji|storage|store|populate|integrations|gateway)/' },
    },
    {
      name: 'web-app-apart-from-server',
      severity: 'error',
      comment:
        'The web app (web/) speaks only the public API. It imports nothing from the server source: its API types ' +
        'are generated into web/src/api/endpoints.gen.ts. Exempt: web/build/api-types.ts, the generator, which ' +
        'reads the route declarations (src/routes/index.ts, src/http/route.ts) to write that file.',
      from: { path: '^web/', pathNot: '^web/build/api-types\\.[jt]s$' },
      to: { path: '^src/' },
    },
    {
      name: 'server-apart-from-web-app',
      severity: 'error',
      comment: 'The server serves the built app from dist/web/ and imports none of its source.',
      from: { path: '^src/' },
      to: { path: '^web/' },
    },
    {
      name: 'local-imports-resolve',
      severity: 'error',
      comment:
        'Every relative import resolves to a file of the tree, so that no arrow drops out of this check unseen. ' +
        'Packages and Vite `virtual:` modules are left to the typecheck and the build.',
      from: {},
      to: { couldNotResolve: true, path: '^\\.' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    // Asset imports of the web app (CSS, images) are files Vite bundles; they are followed but not parsed.
    extraExtensionsToScan: ['.css', '.svg', '.json'],
  },
};
