/**
 * The house's layering, checked by `npm run lint` (dependency-cruiser):
 * - no import circle anywhere;
 * - the engine is pure: it imports nothing of ours outside src/engine but src/shared;
 * - the two applications (src/platform: the portfolio platform's assembly; src/rebalancer: the
 *   rebalancing application's routes) never import each other; both stand on the shared core
 *   (src/db, src/http, src/shared, src/auth, src/book, src/trading, …), which imports neither;
 * - only repositories (and src/db) build queries: value imports of kysely elsewhere are refused.
 */
const APPS = '^src/(platform|rebalancer)/';
const COMPOSITION = '^src/(app|services|background|server|cli)\\.ts$';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'engine-is-pure',
      severity: 'error',
      comment: 'src/engine takes plain data and returns trades and messages: no database, framework or other layer.',
      from: { path: '^src/engine/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(engine|shared)/' },
    },
    {
      name: 'platform-not-rebalancer',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/rebalancer/' },
    },
    {
      name: 'rebalancer-not-platform',
      severity: 'error',
      from: { path: '^src/rebalancer/' },
      to: { path: '^src/platform/' },
    },
    {
      name: 'core-below-apps',
      severity: 'error',
      comment: 'The shared core serves both applications; only the composition root wires them.',
      from: { path: '^src/', pathNot: [APPS, COMPOSITION, '\\.test\\.ts$'] },
      to: { path: APPS },
    },
    {
      name: 'queries-in-repositories',
      severity: 'error',
      comment: 'Only repositories (and src/db) build queries; others may name Kysely types to pass a connection on.',
      from: { path: '^src/', pathNot: ['^src/db/', 'repository\\.ts$', '/repositories?/', '\\.test\\.ts$', 'test-support\\.ts$'] },
      to: { path: 'node_modules/kysely/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
