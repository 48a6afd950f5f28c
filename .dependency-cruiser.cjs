/**
 * The layering of src/ (docs/architecture.md), checked by `npm test` (test/architecture.test.ts) with
 * dependency-cruiser. Arrows point down:
 *
 *   domain/, schemas/         rules and resource shapes, imported by everyone
 *   store/                    database access; below every service
 *   pipeline/                 the weekly pipeline (collect → … → rank → publish)
 *   snapshot/                 the published period and everything derived from it (the design's Period)
 *   core/, payments/          services: typed results, never HTTP
 *   app.ts                    the composition root
 *   http/, agents/, web/, cli/, service.ts   surfaces: parse input, call a service, shape the output
 *
 * Any violation fails the suite; `npx depcruise src --config .dependency-cruiser.cjs` lists them.
 */
const SURFACES = '^src/(http|agents|web|cli)/';
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-the-bottom',
      comment: 'domain/ holds pure rules: it imports only itself and the resource schemas.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/(domain|schemas)/' },
    },
    {
      name: 'schemas-stand-alone',
      comment: 'schemas/ are the resource shapes; they import nothing of ours but each other.',
      severity: 'error',
      from: { path: '^src/schemas/' },
      to: { path: '^src/', pathNot: '^src/schemas/' },
    },
    {
      name: 'store-below-services',
      comment: 'store/ is database access: it knows no period, service or surface.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/(pipeline|snapshot|core|payments|agents|http|web|cli)/|^src/(app|service)\\.ts$' },
    },
    {
      name: 'pipeline-below-the-period',
      comment: 'The pipeline computes and publishes a period; it knows nothing of how a period is served.',
      severity: 'error',
      from: { path: '^src/pipeline/' },
      to: { path: '^src/(snapshot|core|payments)/' },
    },
    {
      name: 'period-below-services',
      comment: 'The period (src/snapshot/) owns its derived state; the services that derive it import it, not the reverse.',
      severity: 'error',
      from: { path: '^src/snapshot/' },
      to: { path: '^src/(core|payments)/' },
    },
    {
      name: 'core-does-not-charge',
      comment: 'Payments build on the core services (Deep Signal); the core never reaches into payments.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/payments/' },
    },
    {
      name: 'surfaces-do-not-read-the-store',
      comment: 'REST routes, agents and pages call services or the period; they never query the database.',
      severity: 'error',
      from: { path: '^src/(http|agents|web)/' },
      to: { path: '^src/store/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'services-do-not-know-surfaces',
      comment: "Services return typed results and errors; turning them into HTTP, MCP or HTML is a surface's job.",
      severity: 'error',
      from: { path: '^src/(domain|schemas|store|pipeline|snapshot|core|payments|github|content|runtime)/' },
      to: { path: SURFACES },
    },
    {
      name: 'agents-and-pages-stand-alone',
      comment:
        'The agent surfaces and the web pages do not depend on the HTTP layer that mounts them (or on each other).',
      severity: 'error',
      from: { path: '^src/(agents|web)/' },
      to: { path: '^src/(http|cli)/' },
    },
    {
      name: 'only-entry-points-build-the-app',
      comment: 'The composition root is used by the entry points and handed to surfaces, never imported below them.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${SURFACES}|^src/service\\.ts$` },
      to: { path: '^src/app\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'Modules that import each other cannot be read, tested or loaded on their own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-does-not-use-tests',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
