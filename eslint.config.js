import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'data', 'dist', 'test-artifacts', 'coverage', 'clients/**/dist', 'clients/typescript/src/platform.ts', 'clients/typescript/src/rebalancer.ts', '.dependency-cruiser.cjs'] },
  js.configs.recommended,
  // Type-aware: floating promises, unsafe `any`, misused promises and the like are errors.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Fastify plugins and hooks are async by contract, whether or not they await anything.
      '@typescript-eslint/require-await': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Tests and benches read HTTP answers through `response.json()`, which is `any` by design: the
    // assertions are what check their shape. Promises and the rest stay checked.
    files: ['**/*.test.ts', 'test/**', 'bench/**', 'scripts/**', 'src/**/test-support.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['bench/**', 'scripts/**', 'examples/**', 'clients/typescript/examples/**', 'src/cli.ts', 'bin/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly' } },
  },
);
