import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', '**/bin/*.js', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@vend/*/src/*', '**/apps/*/src/**', '**/packages/*/src/**', '**/firmware-sim/src/**'],
              message: 'Import a package through its exports (@vend/<name> or a sub-path it exports), never its src.',
            },
          ],
        },
      ],
    },
  },
  // Small modules (issue 31): a source file past these is split by what it does. Tests, the store's row types
  // (one interface per table) and the migrations are exempt.
  {
    files: ['apps/cloud/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/cloud/src/db/schema.ts', 'apps/cloud/src/db/migrations/**'],
    rules: { 'max-lines': ['error', { max: 450, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['apps/agent/src/**/*.ts', 'firmware-sim/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 600, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.commonjs } },
    // CommonJS config files (dependency-cruiser's) read their data with require
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
