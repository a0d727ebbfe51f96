// The layers of the service (docs/conventions.md, "Layers"), checked by `npm run lint:layers`
// in CI. Every import counts, `import type` included: a type-only loop is still a loop in
// the design (two files that cannot be understood, or moved, one without the other).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import loop, type-only imports included: an interface lives with the module that implements it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'modules-not-to-http-or-main',
      severity: 'error',
      comment:
        'src/modules hold the rules and their routes; the HTTP layer (src/http), the composition root and the entry points (src/main) build on them, never the reverse.',
      from: { path: '^src/modules/' },
      to: { path: '^src/(http|main)/' },
    },
    {
      name: 'db-and-lib-import-no-module',
      severity: 'error',
      comment: 'src/db and src/lib are the bottom layer: they import no module, nor anything that does (deps.ts, http, main).',
      from: { path: '^src/(db|lib)/' },
      to: { path: '^src/(modules|http|main|deps\\.ts|app\\.ts|batch-kinds\\.ts)' },
    },
    {
      name: 'web-only-through-surtido-client',
      severity: 'error',
      comment:
        'The web apps (everything under web/ but the browser tests and the Vite configs) run in a browser: they reach the server only through the package names surtido/client and surtido/console-client (web/tsconfig.json paths, web/vite.config.ts aliases), never by a path into src/. The browser tests under web/e2e run in Node beside the server and may import it.',
      from: { path: '^web/', pathNot: '^web/(e2e/|vite\\.[^/]*config\\.ts$)' },
      to: { path: '^src/', dependencyTypesNot: ['aliased-tsconfig-paths'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.web-build|data)/' },
    tsPreCompilationDeps: true,
    // web/tsconfig.json declares the surtido/client and surtido/console-client paths (the
    // same targets as web/vite.config.ts's aliases); the server's files use relative paths.
    tsConfig: { fileName: 'web/tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
