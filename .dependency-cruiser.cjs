/**
 * The house's layering, checked by `npm run lint` (dependency-cruiser):
 * - no import circle anywhere;
 * - the engine is pure: it imports nothing of ours outside src/engine but src/shared;
 * - the two applications (src/platform: the portfolio platform's assembly; src/rebalancer: the
 *   rebalancing application's routes) never import each other; both stand on the shared core
 *   (src/db, src/http, src/shared, src/auth, src/book, src/trading, …), which imports neither;
 * - only repositories (and src/db) build queries: value imports of kysely elsewhere are refused;
 * - no two top-level areas import each other (below).
 */
const APPS = '^src/(platform|rebalancer)/';
const COMPOSITION = '^src/(app|services|background|server|cli)\\.ts$';
const NOT_TESTS = ['\\.test\\.ts$', 'test-support\\.ts$'];

/**
 * The top-level areas under src/, lowest first: an area may import only areas listed before it.
 * Two areas importing each other (set aside cash's records used by the book's transactions while
 * set aside cash read the book's values) make neither understandable alone and bind their changes
 * together; a strict order rules that out for every pair without a list of pairs. An import
 * upwards means the code belongs lower (as the holdings' valuation moved to src/shared), or, when
 * the other direction is unused, the order changes. A new area is added here.
 */
const AREAS = [
  'shared',
  'engine',
  'db',
  'http',
  'auth',
  'outbox',
  'notifications',
  'integrations',
  'set-aside-cash',
  'trade-blocks',
  'seed',
  'book',
  'import',
  'trading',
  'rebalancer',
  'platform',
];
const areaRules = AREAS.slice(0, -1).map((area, i) => ({
  name: `area-order-${area}`,
  severity: 'error',
  comment: `src/${area} may import only the areas listed before it in AREAS (.dependency-cruiser.cjs).`,
  from: { path: `^src/${area}/`, pathNot: NOT_TESTS },
  to: { path: `^src/(${AREAS.slice(i + 1).join('|')})/` },
}));

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
    ...areaRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
